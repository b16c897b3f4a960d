package bohnenspiel;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import boardgame.Move;
import grader_shim.Handler;

/**
 * The grader's side of a Java player (not part of the course's API): loads
 * student_player.StudentPlayer and answers the RPCs as rulesets/bohnenspiel/shim.py does for
 * Python. It holds nothing but the student's player object: every move builds a fresh board
 * from the position the grader sends, so there is no engine state to reach by reflection.
 */
public final class GraderBridge implements Handler {
    static final String ENTRY = "student_player.StudentPlayer";

    private Class<?> playerClass;
    private BohnenspielPlayer player;

    @Override
    public void open(Map<String, Object> options) throws Exception {
        try {
            playerClass = Class.forName(ENTRY);
        } catch (ClassNotFoundException e) {
            playerClass = null;        // the interface RPC says so
        }
    }

    @Override
    public Object call(String method, Map<String, Object> args) throws Exception {
        switch (method) {
            case "interface":
                return problems();
            case "setup":
                setup(toInt(args.get("seat")));
                return null;
            case "move":
                return move(board((Map<?, ?>) args.get("state")));
            default:
                throw new IllegalArgumentException("unknown method " + method);
        }
    }

    private List<String> problems() {
        List<String> out = new ArrayList<>();
        if (playerClass == null) {
            out.add("StudentPlayer.java must define the class StudentPlayer in package student_player.");
        } else if (!BohnenspielPlayer.class.isAssignableFrom(playerClass)) {
            out.add("StudentPlayer must extend BohnenspielPlayer (import bohnenspiel.BohnenspielPlayer).");
        } else if (Modifier.isAbstract(playerClass.getModifiers())) {
            out.add("StudentPlayer must not be abstract: it must define chooseMove(BohnenspielBoardState board_state).");
        } else {
            try {
                Constructor<?> c = playerClass.getConstructor();
                if (!Modifier.isPublic(c.getModifiers())) {
                    out.add("StudentPlayer needs a public constructor without arguments.");
                }
            } catch (NoSuchMethodException e) {
                out.add("StudentPlayer needs a public constructor without arguments (it calls super(\"<student number>\")).");
            }
        }
        return out;
    }

    private void setup(int seat) throws Exception {
        if (player == null) {
            player = (BohnenspielPlayer) playerClass.getConstructor().newInstance();
        }
        player.setColor(seat);
    }

    private Object move(BohnenspielBoardState board) throws Exception {
        if (player == null) {
            setup(board.getTurnPlayer());
        }
        Move move = player.chooseMove(board);
        if (move == null) {           // the course's client plays a random move: the policy's on_none
            Map<String, Object> out = invalid("chooseMove returned null; it must return a BohnenspielMove.");
            out.put("returned", "none");
            return out;
        }
        if (!(move instanceof BohnenspielMove)) {
            return invalid("chooseMove returned a " + move.getClass().getSimpleName()
                    + "; it must return a BohnenspielMove.");
        }
        BohnenspielMove m = (BohnenspielMove) move;
        if (m.move_type == BohnenspielMove.MoveType.NOTHING) {
            return invalid("chooseMove returned a NOTHING move; return a pit or a skip.");
        }
        int id = m.player_id == -1 ? player.player_id : m.player_id;   // the client stamps its own id
        return m.move_type == BohnenspielMove.MoveType.PIT ? "PIT " + id + " " + m.pit : "SKIP " + id;
    }

    private static Map<String, Object> invalid(String sentence) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("invalid", sentence);
        return out;
    }

    /** The board a player is shown, from the grader's State.to_json. */
    static BohnenspielBoardState board(Map<?, ?> s) {
        BohnenspielBoardState b = new BohnenspielBoardState();
        List<?> rows = (List<?>) s.get("pits");
        for (int p = 0; p < 2; p++) {
            List<?> row = (List<?>) rows.get(p);
            for (int i = 0; i < BohnenspielBoardState.PITS; i++) {
                b.pits[p][i] = toInt(row.get(i));
            }
            b.score[p] = toInt(((List<?>) s.get("scores")).get(p));
            b.skipCredit[p] = toInt(((List<?>) s.get("credit")).get(p));
            b.turnsToSkip[p] = toInt(((List<?>) s.get("barred")).get(p));
        }
        b.turn_player = toInt(s.get("turn_player"));
        b.turn_number = toInt(s.get("turn_number"));
        if (s.get("max_turns") != null) {
            b.maxTurn = toInt(s.get("max_turns"));
        }
        if (s.get("end") != null) {
            b.winner = b.score[0] > b.score[1] ? 0 : b.score[1] > b.score[0] ? 1 : BohnenspielBoardState.DRAW;
        }
        return b;
    }

    private static int toInt(Object o) {
        return ((Number) o).intValue();
    }
}
