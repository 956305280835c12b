//! games.pgn: every game of a run as a block of tag lines and its moves, in the spirit of
//! chess's PGN, written by a run's recorder beside games.csv (and remade from games.csv by
//! `arbiter report`), and read back by `arbiter replay`. Not written for `run --no-moves`
//! (no moves are recorded).
//!
//! ```text
//! # games of the run of quick (arbiter)
//!
//! [Game "breakthrough(rules=standard)"]
//! [GameId "33"]
//! ...
//! [Result "P1"]
//! [Reason "goal-row"]
//!
//! g2-g3;c7-b6;g3-h4;b6-b5;...
//! ```
//!
//! The moves are what `replay` reads anywhere: separated by `;` or new lines, `#` starting
//! a comment; an opening's moves come first, on their own line marked `# opening`. The
//! moves are written as games.csv holds them, wrapped at move boundaries, and the tags are
//! the few a reader needs (the experiment's name once, in the first line; the rest of a
//! game's figures are in games.csv), so the file is no larger than games.csv.

use crate::core::{MOVE_SEPARATOR, read_moves};
use crate::registry::InputError;
use serde::Deserialize;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The file's name in a run folder.
pub const GAME_RECORDS: &str = "games.pgn";

/// The columns of games.csv a record needs.
#[derive(Deserialize)]
struct Row {
    game_id: u64,
    game_index: u64,
    seed: u64,
    game: String,
    p1_agent: String,
    p2_agent: String,
    winner: String,
    reason: String,
    opening: String,
    moves: String,
}

/// What a game's record holds: the columns of its games.csv row that a reader needs.
pub struct GameTags<'a> {
    pub game_id: u64,
    pub game_index: u64,
    pub seed: u64,
    pub game: &'a str,
    pub p1_agent: &'a str,
    pub p2_agent: &'a str,
    pub winner: &'a str,
    pub reason: &'a str,
    pub opening: &'a str,
    pub moves: &'a str,
}

impl Row {
    fn tags(&self) -> GameTags<'_> {
        GameTags {
            game_id: self.game_id,
            game_index: self.game_index,
            seed: self.seed,
            game: &self.game,
            p1_agent: &self.p1_agent,
            p2_agent: &self.p2_agent,
            winner: &self.winner,
            reason: &self.reason,
            opening: &self.opening,
            moves: &self.moves,
        }
    }
}

/// The file's first line and the blank line after it: the run's experiment `event`.
pub fn first_line(event: &str) -> String {
    let event = event.replace(['\n', '\r'], " ");
    format!("# games of the run of {event} (arbiter)\n\n")
}

/// Appends a tag line, the value's `"` and `\` escaped.
fn push_tag(text: &mut Vec<u8>, name: &str, value: &[u8]) {
    text.push(b'[');
    text.extend_from_slice(name.as_bytes());
    text.extend_from_slice(b" \"");
    if memchr::memchr2(b'"', b'\\', value).is_none() {
        // Most values: nothing to escape, copied whole.
        text.extend_from_slice(value);
    } else {
        for &byte in value {
            if matches!(byte, b'"' | b'\\') {
                text.push(b'\\');
            }
            text.push(byte);
        }
    }
    text.extend_from_slice(b"\"]\n");
}

/// Appends a tag line of a number.
fn push_number_tag(text: &mut Vec<u8>, name: &str, value: u64) {
    let mut digits = itoa::Buffer::new();
    push_tag(text, name, digits.format(value).as_bytes());
}

/// The widest a line of moves gets (a single longer move stands alone).
const WIDTH: usize = 80;

/// Appends `moves` (separated by [`MOVE_SEPARATOR`]) to `text`, wrapped at move
/// boundaries: a new line takes a separator's place. A line is copied whole: the last
/// separator that keeps it within [`WIDTH`] is found, not every move looked at.
fn push_moves(text: &mut Vec<u8>, moves: &str) {
    let separator = MOVE_SEPARATOR as u8;
    let bytes = moves.as_bytes();
    let empty_move = bytes.first() == Some(&separator)
        || bytes.last() == Some(&separator)
        || memchr::memmem::find(bytes, &[separator, separator]).is_some();
    if empty_move {
        return push_moves_one_by_one(text, moves);
    }
    let mut rest = bytes;
    while !rest.is_empty() {
        let line = if rest.len() <= WIDTH {
            rest.len()
        } else {
            // The last separator within the width ends the line (a separator just past it
            // too: the line is then exactly WIDTH); a longer move stands alone.
            memchr::memrchr(separator, &rest[..=WIDTH])
                .or_else(|| memchr::memchr(separator, rest))
                .unwrap_or(rest.len())
        };
        text.extend_from_slice(&rest[..line]);
        text.push(b'\n');
        rest = rest.get(line + 1..).unwrap_or_default();
    }
}

/// [`push_moves`] a move at a time, leaving out empty moves.
fn push_moves_one_by_one(text: &mut Vec<u8>, moves: &str) {
    let mut width = 0;
    let separator = MOVE_SEPARATOR as u8;
    for mv in moves.as_bytes().split(|&b| b == separator) {
        if mv.is_empty() {
            continue;
        }
        if width > 0 && width + 1 + mv.len() > WIDTH {
            text.push(b'\n');
            width = 0;
        } else if width > 0 {
            text.push(separator);
            width += 1;
        }
        text.extend_from_slice(mv);
        width += mv.len();
    }
    if width > 0 {
        text.push(b'\n');
    }
}

/// Appends one game's record: its tags, a blank line, its moves (an opening's on their own
/// line first) and a blank line.
pub fn push_game(text: &mut Vec<u8>, game: &GameTags) {
    push_tag(text, "Game", game.game.as_bytes());
    push_number_tag(text, "GameId", game.game_id);
    push_number_tag(text, "Round", game.game_index + 1);
    push_number_tag(text, "Seed", game.seed);
    push_tag(text, "P1", game.p1_agent.as_bytes());
    push_tag(text, "P2", game.p2_agent.as_bytes());
    push_tag(text, "Result", game.winner.as_bytes());
    push_tag(text, "Reason", game.reason.as_bytes());
    text.push(b'\n');
    if !game.opening.is_empty() {
        push_moves(text, game.opening);
        text.pop();
        text.extend_from_slice(b"   # opening\n");
    }
    push_moves(text, game.moves);
    text.push(b'\n');
}

/// Writes games.pgn in `folder` from its games.csv, one game at a time (nothing grows with
/// the number of games). A run's recorder writes the same bytes as it plays.
///
/// # Errors
/// games.csv that cannot be read, or the file that cannot be written, named.
pub fn write_game_records(folder: &Path, event: &str) -> Result<PathBuf, InputError> {
    let games = folder.join("games.csv");
    let path = folder.join(GAME_RECORDS);
    let fail_read = |e: csv::Error| InputError::in_file(&games, None, e.to_string());
    let fail_write = |e: io::Error| InputError::in_file(&path, None, e.to_string());
    let mut reader = csv::Reader::from_path(&games).map_err(fail_read)?;
    let mut out = BufWriter::new(std::fs::File::create(&path).map_err(fail_write)?);
    let mut text = first_line(event).into_bytes();
    for (index, row) in reader.deserialize::<Row>().enumerate() {
        let row = row.map_err(|e| InputError::in_file(&games, Some(index + 2), e.to_string()))?;
        push_game(&mut text, &row.tags());
        out.write_all(&text).map_err(fail_write)?;
        text.clear();
    }
    out.write_all(&text).map_err(fail_write)?;
    out.flush().map_err(fail_write)?;
    Ok(path)
}

/// One game read from a record file: its tags and its moves with their line numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameRecordText {
    /// Tag names and values, in file order.
    pub tags: Vec<(String, String)>,
    /// The moves (opening first) with their 1-based line numbers in the file.
    pub moves: Vec<(usize, String)>,
}

impl GameRecordText {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Whether `text` is a record file (its first line that is not blank or a comment is a tag).
pub fn is_record_file(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('['))
}

/// Reads one tag line: `[Name "value"]`.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(' ')?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        name.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// The games of a record file, in file order.
///
/// # Errors
/// A malformed tag line, with its line number.
pub fn read_game_records(text: &str) -> Result<Vec<GameRecordText>, InputError> {
    let mut games: Vec<GameRecordText> = Vec::new();
    let mut in_moves = false;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            let tag = parse_tag(trimmed).ok_or_else(|| InputError {
                file: None,
                line: Some(index + 1),
                message: "malformed tag (expected [Name \"value\"])".to_string(),
            })?;
            if in_moves || games.is_empty() {
                games.push(GameRecordText::default());
                in_moves = false;
            }
            games.last_mut().expect("a game").tags.push(tag);
        } else if let Some(game) = games.last_mut() {
            let moves = read_moves(line);
            if !moves.is_empty() {
                in_moves = true;
                game.moves
                    .extend(moves.into_iter().map(|(_, m)| (index + 1, m)));
            }
        }
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_wrap_at_move_boundaries_and_read_back_as_written() {
        let moves: Vec<String> = (0..40).map(|i| format!("m{i}-x{}", i * 7)).collect();
        let joined = moves.join(";");
        let mut text = Vec::new();
        push_moves(&mut text, &joined);
        let text = String::from_utf8(text).expect("UTF-8");
        assert!(text.lines().count() > 1, "{text}");
        assert!(text.lines().all(|l| l.len() <= WIDTH), "{text}");
        // One byte per move boundary, as in games.csv, plus the last newline.
        assert_eq!(text.len(), joined.len() + 1);
        let read: Vec<String> = read_moves(&text).into_iter().map(|(_, m)| m).collect();
        assert_eq!(read, moves);
        let mut empty = Vec::new();
        push_moves(&mut empty, "");
        assert!(empty.is_empty());
    }

    #[test]
    fn whole_lines_are_the_lines_of_a_move_at_a_time() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |below: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % below
        };
        for _ in 0..3_000 {
            let count = next(40);
            let moves: Vec<String> = (0..count)
                .map(|_| {
                    let longest = if next(10) == 0 { 120 } else { 9 };
                    "m".repeat(1 + next(longest) as usize)
                })
                .collect();
            let joined = moves.join(";");
            let (mut whole, mut one_by_one) = (Vec::new(), Vec::new());
            push_moves(&mut whole, &joined);
            push_moves_one_by_one(&mut one_by_one, &joined);
            assert_eq!(whole, one_by_one, "{joined}");
        }
        for odd in [";a;b", "a;;b", "a;b;", ";", ";;"] {
            let (mut whole, mut one_by_one) = (Vec::new(), Vec::new());
            push_moves(&mut whole, odd);
            push_moves_one_by_one(&mut one_by_one, odd);
            assert_eq!(whole, one_by_one, "{odd}");
        }
    }

    #[test]
    fn blocks_read_back_with_tags_moves_and_lines() {
        let text = "[Event \"x\"]\n[GameId \"0\"]\n[P1 \"a \\\"b\\\"\"]\n\nc2-c3; c7-c6   # 1\nd2-d3   # 2\n\n[Event \"x\"]\n[GameId \"1\"]\n\n5 2 4 2; 1 3 2 3   # opening\n";
        assert!(is_record_file(text));
        assert!(!is_record_file("# a comment\nc2-c3\n"));
        let games = read_game_records(text).expect("valid");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].tag("GameId"), Some("0"));
        assert_eq!(games[0].tag("P1"), Some("a \"b\""));
        assert_eq!(
            games[0].moves,
            vec![
                (5, "c2-c3".to_string()),
                (5, "c7-c6".to_string()),
                (6, "d2-d3".to_string())
            ]
        );
        assert_eq!(games[1].moves[1], (11, "1 3 2 3".to_string()));
        let err = read_game_records("[Event x]\n")
            .expect_err("bad tag")
            .to_string();
        assert!(err.starts_with("line 1: malformed tag"), "{err}");
    }
}
