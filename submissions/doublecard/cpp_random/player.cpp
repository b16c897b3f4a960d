// A Double Card player in C++ speaking the line protocol (rulesets/doublecard/README.md):
// reads "<role> first|second", then the opponent's moves one a line, and prints a random legal
// move in the course's notation whenever it is its turn. Keeps its own board.
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {
const int W = 8, H = 12;
const std::string COLS = "ABCDEFGH";

struct Card { int code, col, row; };

std::map<int, Card> cards;                 // card number -> placement
std::map<std::pair<int, int>, int> at;     // (col, row) -> card number
int locked = -1;                           // the card the last move placed or moved

std::vector<std::pair<int, int>> cellsOf(const Card& c) {
    if (c.code % 2) return {{c.col, c.row}, {c.col + 1, c.row}};
    return {{c.col, c.row}, {c.col, c.row + 1}};
}

void put(int card, const Card& c) {
    cards[card] = c;
    for (auto cell : cellsOf(c)) at[cell] = card;
    locked = card;
}

void lift(int card) {
    for (auto cell : cellsOf(cards[card])) at.erase(cell);
    cards.erase(card);
}

bool fits(const Card& c) {
    auto cells = cellsOf(c);
    for (auto [x, y] : cells)
        if (x < 0 || x >= W || y < 0 || y >= H || at.count({x, y})) return false;
    size_t needs = c.code % 2 ? 2 : 1;
    for (size_t i = 0; i < needs; i++) {
        auto [x, y] = cells[i];
        if (y > 0 && !at.count({x, y - 1})) return false;
    }
    return true;
}

std::vector<Card> placements() {
    std::vector<Card> out;
    for (int row = 0; row < H; row++)
        for (int col = 0; col < W; col++)
            for (int code = 1; code <= 8; code++)
                if (fits({code, col, row})) out.push_back({code, col, row});
    return out;
}

std::string cell(int col, int row) { return std::string(1, COLS[col]) + " " + std::to_string(row + 1); }

std::string text(const Card& c) { return std::to_string(c.code) + " " + cell(c.col, c.row); }

std::vector<std::string> moves() {
    std::vector<std::string> out;
    if (cards.size() < 24) {
        for (auto& p : placements()) out.push_back("0 " + text(p));
        return out;
    }
    std::vector<int> numbers;
    for (auto& [n, c] : cards) numbers.push_back(n);
    for (int n : numbers) {
        Card c = cards[n];
        auto cells = cellsOf(c);
        bool covered = false;
        for (size_t i = c.code % 2 ? 0 : 1; i < cells.size(); i++)
            if (at.count({cells[i].first, cells[i].second + 1})) covered = true;
        if (n == locked || covered) continue;
        lift(n);
        std::string source = cell(cells[0].first, cells[0].second) + " " + cell(cells[1].first, cells[1].second);
        for (auto& p : placements())
            if (p.code != c.code || p.col != c.col || p.row != c.row) out.push_back(source + " " + text(p));
        cards[n] = c;
        for (auto x : cells) at[x] = n;
    }
    return out;
}

void play(const std::string& move) {
    std::istringstream in(move);
    std::vector<std::string> t;
    for (std::string w; in >> w;) t.push_back(w);
    size_t k = t.size();
    Card c{std::stoi(t[k - 3]), (int)COLS.find(toupper(t[k - 2][0])), std::stoi(t[k - 1]) - 1};
    int card = (int)cards.size();
    if (k != 4) {
        card = at[{(int)COLS.find(toupper(t[0][0])), std::stoi(t[1]) - 1}];
        lift(card);
    }
    put(card, c);
}
}  // namespace

int main() {
    std::mt19937 rng(std::random_device{}());
    std::string role, order, line;
    std::cin >> role >> order;
    std::getline(std::cin, line);
    bool myTurn = order == "first";
    while (true) {
        if (!myTurn) {
            if (!std::getline(std::cin, line)) return 0;   // the grader closed the game
            play(line);
        }
        auto options = moves();
        std::string move = options[std::uniform_int_distribution<size_t>(0, options.size() - 1)(rng)];
        play(move);
        std::cout << move << std::endl;                     // endl flushes: the grader waits for it
        std::cerr << "played " << move << "\n";              // debugging goes to stderr
        myTurn = false;
    }
}
