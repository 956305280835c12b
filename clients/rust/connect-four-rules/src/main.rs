//! Connect Four as a rules program: the game protocol on stdin and stdout, answered by the
//! same code the library's `request` calls.

use connect_four_rules::Context;
use std::io::{BufRead, Write};

fn main() {
    let mut context = Context::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        if line.contains("\"quit\"") {
            break;
        }
        let reply = context.request(&line);
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
