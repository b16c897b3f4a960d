"""Example programs the tests build in several places (one copy, so they never drift apart)."""

# A Double Card line-protocol player in Rust: reads whether it moves first, then always plays "0 5 A 2".
RUST_MAIN = """use std::io::{self, BufRead, Write};
fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut my_turn = lines.next().unwrap().unwrap().ends_with("first");
    loop {
        if !my_turn && lines.next().is_none() { return; }
        println!("0 5 A 2");
        io::stdout().flush().unwrap();
        my_turn = false;
    }
}
"""
