//! The `move` request of every ply, read in one pass over the line without building a
//! JSON value: `serve-agent` answers one per move, and serde_json's tree (or its derived
//! reader, a call per string) cost more than the rest of a random agent's move.
//!
//! The reader takes only the plain form arbiter and the helpers write; anything else (an
//! escape in any string, a number with a fraction or exponent, a repeated key it reads,
//! a move that is not a string, a line that is not one JSON object, nesting deeper than
//! [`MAX_DEPTH`]) is declined, and the caller reads the line the general way. So a line
//! it takes is valid JSON and means what the general reader makes of it (a test checks
//! both on many lines).

use crate::core::json::escaped;
use serde_json::Value;
use std::ops::Range;

/// Nesting deeper than this is left to serde_json (whose own limit is 128).
const MAX_DEPTH: u32 = 32;

/// What a `move` request asks besides its history.
#[derive(Debug)]
pub struct MoveLine {
    /// `time_ms`: the milliseconds to decide, when given.
    pub time_ms: Option<u64>,
    /// `clock`, when given and not null.
    pub clock: Option<Value>,
}

/// Reads `line` as a `move` request: its other fields, with the history's moves as
/// ranges of `line` in `moves` (cleared first). `None`: the line is to be read the general
/// way (another type, or a form this reader does not take).
pub fn read(line: &str, moves: &mut Vec<Range<usize>>) -> Option<MoveLine> {
    moves.clear();
    let mut scan = Scan {
        bytes: line.as_bytes(),
        at: 0,
    };
    let mut request = MoveLine {
        time_ms: None,
        clock: None,
    };
    // Keys read so far (type, moves, time_ms, clock): a repeated one is declined, as the
    // general reader keeps the last.
    let mut seen = [false; 4];
    scan.space();
    scan.expect(b'{')?;
    scan.items(b'}', |scan| {
        let key = scan.string()?;
        scan.space();
        scan.expect(b':')?;
        scan.space();
        let field = match &line[key] {
            "type" => 0,
            "moves" => 1,
            "time_ms" => 2,
            "clock" => 3,
            _ => return scan.value(0),
        };
        if seen[field] {
            return None;
        }
        seen[field] = true;
        match field {
            0 => (&line[scan.string()?] == "move").then_some(()),
            1 => {
                scan.expect(b'[')?;
                scan.items(b']', |scan| {
                    moves.push(scan.string()?);
                    Some(())
                })
            }
            2 => {
                request.time_ms = if scan.literal(b"null") {
                    None
                } else {
                    let digits = scan.integer()?;
                    Some(line[digits].parse().ok()?)
                };
                Some(())
            }
            _ => {
                request.clock = if scan.literal(b"null") {
                    None
                } else {
                    let start = scan.at;
                    scan.value(0)?;
                    let clock: Value = serde_json::from_str(&line[start..scan.at]).ok()?;
                    (!clock.is_null()).then_some(clock)
                };
                Some(())
            }
        }
    })?;
    scan.space();
    (scan.at == scan.bytes.len() && seen[0]).then_some(request)
}

/// The bytes of `word` (little-endian) that are [`escaped`] in a JSON string (a quote
/// ends the string, a backslash starts an escape, a control character is not allowed),
/// each as its top bit; only the lowest is exact (a set bit may follow a true one
/// spuriously), which is all the scan reads.
fn stops_in(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const TOPS: u64 = 0x8080_8080_8080_8080;
    // Bytes below `n` (n <= 128) flagged: the classic test for a zero byte, shifted.
    let below = |word: u64, n: u64| word.wrapping_sub(ONES * n) & !word & TOPS;
    below(word ^ (ONES * u64::from(b'"')), 1)
        | below(word ^ (ONES * u64::from(b'\\')), 1)
        | below(word, 0x20)
}

/// A position in a line's bytes; every step returns `None` where the quick reader
/// declines.
struct Scan<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// JSON's white space.
    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        let here = self.peek() == Some(byte);
        self.at += usize::from(here);
        here
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    /// `word` next (compared as an array of known length, without a call).
    fn literal<const N: usize>(&mut self, word: &[u8; N]) -> bool {
        let here = self
            .bytes
            .get(self.at..self.at + N)
            .is_some_and(|next| <[u8; N]>::try_from(next).is_ok_and(|next| next == *word));
        self.at += N * usize::from(here);
        here
    }

    /// A string without escapes or control characters: the range of its contents.
    /// (Inlined: most of a line is short strings, and a call's saved registers cost as
    /// much as the scan of one.)
    #[inline(always)]
    fn string(&mut self) -> Option<Range<usize>> {
        self.expect(b'"')?;
        let start = self.at;
        let mut end = start;
        // Eight bytes at a time, then one at a time: the first quote, backslash or
        // control character ends the contents.
        loop {
            let Some(chunk) = self.bytes.get(end..end + 8) else {
                end += self.bytes[end..].iter().position(|&b| escaped(b))?;
                break;
            };
            let word = u64::from_le_bytes(chunk.try_into().ok()?);
            let stops = stops_in(word);
            if stops != 0 {
                end += (stops.trailing_zeros() / 8) as usize;
                break;
            }
            end += 8;
        }
        self.at = end;
        self.expect(b'"')?;
        Some(start..end)
    }

    /// An integer of at most 18 digits, no sign, fraction or exponent (so it fits a
    /// `u64`), no leading zero: the range of its digits.
    fn integer(&mut self) -> Option<Range<usize>> {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        let digits = self.at - start;
        let leading_zero = digits > 1 && self.bytes[start] == b'0';
        let more = matches!(self.peek(), Some(b'.' | b'e' | b'E'));
        (digits > 0 && digits <= 18 && !leading_zero && !more).then_some(start..self.at)
    }

    /// The items of a list or an object up to `close` (its opening bracket read),
    /// separated by commas, each read by `item`.
    #[inline(always)]
    fn items(&mut self, close: u8, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.space();
        if self.eat(close) {
            return Some(());
        }
        loop {
            item(self)?;
            self.space();
            if self.eat(close) {
                return Some(());
            }
            self.expect(b',')?;
            self.space();
        }
    }

    /// Any JSON value of the forms above, skipped.
    fn value(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' => {
                self.at += 1;
                self.items(b'}', |scan| {
                    scan.string()?;
                    scan.space();
                    scan.expect(b':')?;
                    scan.space();
                    scan.value(depth + 1)
                })
            }
            b'[' => {
                self.at += 1;
                self.items(b']', |scan| {
                    // A list of strings (legal moves, a board's rows) without a call each.
                    if scan.peek() == Some(b'"') {
                        scan.string().map(drop)
                    } else {
                        scan.value(depth + 1)
                    }
                })
            }
            b'-' => {
                self.at += 1;
                self.integer().map(drop)
            }
            b'0'..=b'9' => self.integer().map(drop),
            _ => (self.literal(b"true") || self.literal(b"false") || self.literal(b"null"))
                .then_some(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::Rng;

    /// A request's type, moves, `time_ms` and clock.
    type Reading = (String, Vec<String>, Option<u64>, Option<Value>);

    /// What the general reader makes of a line: its type, the strings of its `moves`,
    /// `time_ms` as a `u64`, and `clock` (null as none), or `None` when it is not JSON.
    fn general(line: &str) -> Option<Reading> {
        let request: Value = serde_json::from_str(line).ok()?;
        let moves = request["moves"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let clock = request.get("clock").filter(|c| !c.is_null()).cloned();
        Some((
            request["type"].as_str().unwrap_or("").to_string(),
            moves,
            request["time_ms"].as_u64(),
            clock,
        ))
    }

    /// The quick reading of a line in the general reader's terms.
    fn quick(line: &str) -> Option<Reading> {
        let mut moves = Vec::new();
        let request = read(line, &mut moves)?;
        let moves = moves.into_iter().map(|r| line[r].to_string()).collect();
        Some(("move".to_string(), moves, request.time_ms, request.clock))
    }

    const USUAL: &str = r#"{"clock":null,"game_id":3,"legal":["a2-a3","b2-b3"],"moves":["c2-c3","h7-h6"],"ply":2,"position":{"board":["11","22"],"cols":8,"rows":8,"rules":"standard","to_move":"P1"},"seat":"P1","time_ms":null,"type":"move"}"#;

    #[test]
    fn the_usual_lines_are_read_as_the_general_reader_reads_them() {
        let lines = [
            USUAL,
            r#"{"type":"move","moves":[],"time_ms":250,"clock":{"p1_ms":5000,"p2_ms":4000,"p1_increment_ms":0,"p2_increment_ms":0,"basis":"wall"}}"#,
            r#" { "type" : "move" , "moves" : [ "a2-a3" , "é-漢" ] , "x" : [ true , false , null , -0 , 12 , { } , [ ] ] } "#,
            r#"{"type":"move","extra":{"a":{"b":[1,[2,[3]]]}},"time_ms":0}"#,
            r#"{"moves":["a"],"type":"move","clock":null,"time_ms":123456789012345678}"#,
        ];
        for line in lines {
            let quick = quick(line);
            assert!(quick.is_some(), "declined: {line}");
            assert_eq!(quick, general(line), "{line}");
        }
        let mut moves = Vec::new();
        let request = read(USUAL, &mut moves).expect("read");
        assert_eq!(request.time_ms, None);
        let texts: Vec<&str> = moves.into_iter().map(|r| &USUAL[r]).collect();
        assert_eq!(texts, ["c2-c3", "h7-h6"]);
    }

    #[test]
    fn a_string_ends_at_its_first_quote_backslash_or_control_character() {
        // Every byte value at every place of strings of up to 20 bytes, the bytes before
        // it plain, after it anything: the scan by words finds what a byte scan finds.
        for length in 0..20 {
            for place in 0..length {
                for byte in 0..=255u8 {
                    let mut text = vec![b'a'; length];
                    text[place] = byte;
                    for (i, after) in text.iter_mut().enumerate().skip(place + 1) {
                        *after = [b'"', 0x01, b'\\', 0xff, b'x'][i % 5];
                    }
                    let mut bytes = vec![b'"'];
                    bytes.extend_from_slice(&text);
                    bytes.push(b'"');
                    let mut scan = Scan {
                        bytes: &bytes,
                        at: 0,
                    };
                    let found = scan.string();
                    let end = 1 + bytes[1..].iter().position(|&b| escaped(b)).unwrap();
                    let expected = (bytes[end] == b'"').then_some(1..end);
                    assert_eq!(found, expected, "{bytes:?}");
                }
            }
        }
    }

    #[test]
    fn lines_of_other_forms_are_declined() {
        for line in [
            "",
            "{}",
            "[]",
            r#"["move",["a2-a3"],50,null]"#,
            r#"{"type":"ping","id":1}"#,
            r#"{"moves":["a2-a3"]}"#,
            r#"{"type":"move","type":"move"}"#,
            r#"{"type":"move","moves":[],"moves":[]}"#,
            r#"{"type":"move","time_ms":50.5}"#,
            r#"{"type":"move","time_ms":5e3}"#,
            r#"{"type":"move","time_ms":-1}"#,
            r#"{"type":"move","time_ms":"50"}"#,
            r#"{"type":"move","time_ms":0123}"#,
            r#"{"type":"move","time_ms":1234567890123456789}"#,
            r#"{"type":"move","moves":["a2-a3",7]}"#,
            r#"{"type":"move","moves":"a2-a3"}"#,
            r#"{"type":"move","moves":null}"#,
            r#"{"type":"move","moves":["a\u0032-a3"]}"#,
            r#"{"t\u0079pe":"move"}"#,
            "{\"type\":\"move\",\"moves\":[\"a\tb\"]}",
            r#"{"type":"move"} x"#,
            r#"{"type":"move"}}"#,
            r#"{"type":"move",}"#,
            r#"{"type":"move","x":01}"#,
            r#"{"type":"move","x":tru}"#,
            r#"{"type":"move","x":[1,]}"#,
            r#"{"type":"move","x":-}"#,
            r#"{"type":"move""#,
            r#"{"type":"move","x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#,
        ] {
            assert_eq!(quick(line), None, "{line}");
        }
    }

    #[test]
    fn a_line_the_quick_reader_takes_means_what_it_means_to_the_general_reader() {
        // Usual lines cut short, with a byte changed, inserted or removed: wherever the
        // quick reader takes one, it is JSON and reads alike.
        let alphabet = b" \t\"\\{}[],:0123456789-.eEtrufalsn\x01xy";
        let mut rng = crate::core::seeds::rng(36);
        let mut below = |n: usize| (rng.next_u64() % n as u64) as usize;
        let (mut taken, mut tried) = (0, 0);
        let lines = [
            USUAL,
            r#"{"type":"move","moves":["a2-a3"],"time_ms":50,"clock":{"p1_ms":1,"p2_ms":2,"p1_increment_ms":0,"p2_increment_ms":0}}"#,
        ];
        for _ in 0..40_000 {
            let mut bytes = lines[below(lines.len())].as_bytes().to_vec();
            for _ in 0..1 + below(3) {
                let at = below(bytes.len() + 1);
                let byte = alphabet[below(alphabet.len())];
                match below(4) {
                    0 => bytes.truncate(at),
                    1 if at < bytes.len() => bytes[at] = byte,
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => bytes.insert(at, byte),
                }
            }
            let Ok(line) = String::from_utf8(bytes) else {
                continue;
            };
            tried += 1;
            if let Some(quick) = quick(&line) {
                taken += 1;
                assert_eq!(Some(quick), general(&line), "{line}");
            }
        }
        // Most changes break the line; enough of them still leave a request to compare.
        assert!(taken > tried / 20, "{taken} of {tried} lines taken");
    }
}
