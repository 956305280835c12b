//! Connect Four for arbiter, two ways from the same rules: a rules library
//! (`arbiter_rules_v1`, docs/game-library.md), which arbiter loads and calls in its own
//! process, and a rules program (src/main.rs) answering the game protocol on stdin.
//!
//! A position is the columns played so far, one digit each from 1 (`"4435"`; the empty
//! string is the start), so any position can be read back without a table. Moves are the
//! open columns from the left, named by their number, as arbiter's built-in
//! `connect-four` names them; `evaluate` is the built-in `windows` heuristic at its
//! defaults, so that a search on this game counts the same nodes as on the built-in one.

use serde_json::{Value, json};
use std::ffi::{c_char, c_void};

/// The interface version this library implements.
pub const ABI: u32 = 1;

/// Board sizes, as the built-in game allows them.
const ROWS: std::ops::RangeInclusive<u32> = 4..=8;
const COLUMNS: std::ops::RangeInclusive<u32> = 4..=9;

/// The board's shape and its masks (bit `column * height + row`, a spare bit on top of
/// each column).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    rows: u32,
    columns: u32,
    height: u32,
    bottom: u128,
    board: u128,
    centre: u128,
}

impl Shape {
    /// A board of `rows` x `columns`.
    ///
    /// # Errors
    /// A size the game does not allow.
    pub fn new(rows: u32, columns: u32) -> Result<Shape, String> {
        if !ROWS.contains(&rows) {
            return Err(format!("rows={rows}: rows must be from 4 to 8"));
        }
        if !COLUMNS.contains(&columns) {
            return Err(format!("columns={columns}: columns must be from 4 to 9"));
        }
        let height = rows + 1;
        let column_cells = (1u128 << rows) - 1;
        let (mut bottom, mut board) = (0, 0);
        for column in 0..columns {
            bottom |= 1 << (column * height);
            board |= column_cells << (column * height);
        }
        let middle = (columns - 1) / 2;
        let mut centre = column_cells << (middle * height);
        if columns.is_multiple_of(2) {
            centre |= column_cells << ((middle + 1) * height);
        }
        Ok(Shape {
            rows,
            columns,
            height,
            bottom,
            board,
            centre,
        })
    }

    fn column(&self, column: u32) -> u128 {
        ((1u128 << self.rows) - 1) << (column * self.height)
    }
}

/// A position: the discs, whose move it is, how it ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Board {
    /// The first player's discs.
    p1: u128,
    /// Every disc.
    all: u128,
    plies: u32,
    /// 0 in play, 1 or 2 a win of that player, 3 a draw.
    result: u8,
}

/// Whether `discs` hold four in a row on a board of column height `height`.
fn has_four(discs: u128, height: u32) -> bool {
    [1, height, height - 1, height + 1].iter().any(|&shift| {
        let pairs = discs & (discs >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

/// Lines of four holding only `own`'s discs, counted by how many: `[ones, twos, threes]`
/// (each line's count of own discs added up as three bit planes, all lines of a direction
/// at once).
fn windows(own: u128, other: u128, shape: &Shape) -> [u32; 3] {
    let (h, board) = (shape.height, shape.board);
    let mut counts = [0; 3];
    for shift in [1, h, h - 1, h + 1] {
        let on_board = board & (board >> shift) & (board >> (2 * shift)) & (board >> (3 * shift));
        let clean =
            on_board & !(other | other >> shift | other >> (2 * shift) | other >> (3 * shift));
        let (a, b, c, d) = (own, own >> shift, own >> (2 * shift), own >> (3 * shift));
        let (low1, carry1) = (a ^ b, a & b);
        let (low2, carry2) = (c ^ d, c & d);
        let low = low1 ^ low2;
        let carry = low1 & low2;
        let mid = carry1 ^ carry2 ^ carry;
        let high = (carry1 & carry2) | (carry & (carry1 ^ carry2));
        let none_high = clean & !high;
        counts[0] += (none_high & !mid & low).count_ones();
        counts[1] += (none_high & mid & !low).count_ones();
        counts[2] += (none_high & mid & low).count_ones();
    }
    counts
}

impl Board {
    /// The start.
    pub fn start() -> Board {
        Board {
            p1: 0,
            all: 0,
            plies: 0,
            result: 0,
        }
    }

    /// The position a string of columns names.
    ///
    /// # Errors
    /// A character that is not a column of the board, a full column, or a move after the
    /// game ended.
    pub fn read(text: &[u8], shape: &Shape) -> Result<Board, String> {
        let mut board = Board::start();
        for &c in text {
            board = board.then(c, shape)?;
        }
        Ok(board)
    }

    /// The position after the move written `c`.
    ///
    /// # Errors
    /// As [`Board::read`].
    fn then(mut self, c: u8, shape: &Shape) -> Result<Board, String> {
        if self.result != 0 {
            return Err("a move after the game ended".to_string());
        }
        let column = u32::from(c.wrapping_sub(b'1'));
        if column >= shape.columns {
            return Err(format!("'{}' is not a column", char::from(c)));
        }
        if !self.play(column, shape) {
            return Err(format!("column {} is full", column + 1));
        }
        Ok(self)
    }

    /// The open columns, from the left.
    fn open(&self, shape: &Shape) -> impl Iterator<Item = u32> + '_ {
        let playable = (self.all + shape.bottom) & shape.board;
        let shape = *shape;
        (0..shape.columns).filter(move |&c| self.result == 0 && playable & shape.column(c) != 0)
    }

    /// Drops a disc in `column`; false when it is full.
    fn play(&mut self, column: u32, shape: &Shape) -> bool {
        let disc = (self.all + shape.bottom) & shape.column(column);
        if disc == 0 {
            return false;
        }
        let mover = self.plies % 2;
        self.all |= disc;
        if mover == 0 {
            self.p1 |= disc;
        }
        self.plies += 1;
        let own = if mover == 0 {
            self.p1
        } else {
            self.all ^ self.p1
        };
        if has_four(own, shape.height) {
            self.result = 1 + mover as u8;
        } else if self.all == shape.board {
            self.result = 3;
        }
        true
    }

    /// A player's discs (0: the first).
    fn discs(&self, player: u32) -> u128 {
        if player == 0 {
            self.p1
        } else {
            self.all ^ self.p1
        }
    }

    /// The `windows` heuristic at its defaults for `player`.
    pub fn windows_value(&self, player: u32, shape: &Shape) -> f64 {
        let (own, other) = (self.discs(player), self.discs(1 - player));
        let [_, twos, threes] = windows(own, other, shape);
        let [_, their_twos, their_threes] = windows(other, own, shape);
        3.0 * f64::from((own & shape.centre).count_ones())
            + 2.0 * f64::from(twos)
            + 5.0 * f64::from(threes)
            - 0.0 * f64::from(their_twos)
            - 4.0 * f64::from(their_threes)
    }

    /// The status as the protocol says it.
    fn status(&self) -> Value {
        match self.result {
            0 => json!({"to_move": if self.plies.is_multiple_of(2) { "P1" } else { "P2" }}),
            1 | 2 => json!({"over": true, "winner": format!("P{}", self.result),
                            "reason": "four-in-a-row"}),
            _ => json!({"over": true, "winner": null, "reason": "board-full"}),
        }
    }
}

/// One context: the board shape `hello` set, and the boards along the last position read
/// (a search asks about a child right after making it, then about its parent again).
pub struct Context {
    shape: Option<Shape>,
    /// The last position read.
    last: Vec<u8>,
    /// The board after each prefix of `last`: `boards[k]` after its first `k` moves.
    boards: Vec<Board>,
}

impl Context {
    /// A context before `hello`.
    pub fn new() -> Context {
        Context {
            shape: None,
            last: Vec::new(),
            boards: vec![Board::start()],
        }
    }

    /// The position `text` names, played on from the longest prefix it shares with the
    /// last one read.
    fn board(&mut self, text: &[u8]) -> Result<(Board, Shape), String> {
        let shape = self.shape.ok_or("no `hello` yet")?;
        let shared = text
            .iter()
            .zip(&self.last)
            .take_while(|(a, b)| a == b)
            .count();
        self.last.truncate(shared);
        self.boards.truncate(shared + 1);
        for &c in &text[shared..] {
            let board = self.boards[self.boards.len() - 1].then(c, &shape);
            match board {
                Ok(board) => {
                    self.boards.push(board);
                    self.last.push(c);
                }
                Err(e) => return Err(e),
            }
        }
        Ok((self.boards[text.len()], shape))
    }

    /// The reply to one request line of the game protocol.
    pub fn request(&mut self, line: &str) -> String {
        match self.answer(line) {
            Ok(reply) => reply.to_string(),
            Err(message) => json!({"type": "error", "message": message}).to_string(),
        }
    }

    fn answer(&mut self, line: &str) -> Result<Value, String> {
        let request: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        let kind = request["type"].as_str().unwrap_or("");
        if kind == "hello" {
            let size = |key: &str, default: u32| match &request["params"][key] {
                Value::Null => Ok(default),
                value => value
                    .as_u64()
                    .map(|n| n as u32)
                    .ok_or(format!("{key}={value}: {key} must be a whole number")),
            };
            let known = ["rows", "columns"];
            if let Some(map) = request["params"].as_object()
                && let Some(key) = map.keys().find(|k| !known.contains(&k.as_str()))
            {
                return Err(format!("unknown parameter '{key}' (known: rows, columns)"));
            }
            self.shape = Some(Shape::new(size("rows", 6)?, size("columns", 7)?)?);
            self.last.clear();
            self.boards.truncate(1);
            let shape = self.shape.unwrap_or_else(|| unreachable!());
            return Ok(json!({
                "type": "ready", "protocol": 2,
                "name": format!("connect four {}x{} (rules library)", shape.rows, shape.columns),
                "evaluate": true, "render": true,
            }));
        }
        let position = request["position"].as_str().unwrap_or("");
        match kind {
            "initial" => Ok(json!({"type": "position", "position": ""})),
            "status" => {
                let (board, _) = self.board(position.as_bytes())?;
                let mut reply = board.status();
                reply["type"] = json!("status");
                Ok(reply)
            }
            "legal" => {
                let (board, shape) = self.board(position.as_bytes())?;
                let moves: Vec<String> = board.open(&shape).map(|c| (c + 1).to_string()).collect();
                Ok(json!({"type": "legal", "moves": moves}))
            }
            "apply" => {
                let (mut board, shape) = self.board(position.as_bytes())?;
                let text = request["move"].as_str().unwrap_or("");
                let column = text
                    .parse::<u32>()
                    .ok()
                    .filter(|c| board.open(&shape).any(|open| open + 1 == *c))
                    .ok_or(format!("'{text}' is not a legal move here"))?;
                board.play(column - 1, &shape);
                Ok(
                    json!({"type": "position", "position": format!("{position}{column}"),
                          "status": board.status()}),
                )
            }
            "evaluate" => {
                let (board, shape) = self.board(position.as_bytes())?;
                let player = match request["player"].as_str() {
                    Some("P1") => 0,
                    Some("P2") => 1,
                    _ => return Err("player must be \"P1\" or \"P2\"".to_string()),
                };
                Ok(json!({"type": "value", "value": board.windows_value(player, &shape)}))
            }
            "render" => {
                let (board, shape) = self.board(position.as_bytes())?;
                let rows: Vec<Vec<&str>> = (0..shape.rows)
                    .rev()
                    .map(|row| {
                        (0..shape.columns)
                            .map(|column| {
                                let bit = 1u128 << (column * shape.height + row);
                                if board.p1 & bit != 0 {
                                    "X"
                                } else if board.all & bit != 0 {
                                    "O"
                                } else {
                                    ""
                                }
                            })
                            .collect()
                    })
                    .collect();
                let labels: Vec<String> = (1..=shape.columns).map(|c| c.to_string()).collect();
                Ok(
                    json!({"type": "render", "rows": rows, "column_labels": labels,
                          "colors": {"X": "#c0392b", "O": "#d4ac0d"}}),
                )
            }
            other => Err(format!("unknown request type '{other}'")),
        }
    }
}

impl Default for Context {
    fn default() -> Context {
        Context::new()
    }
}

// The library interface (docs/game-library.md), version 1.

/// A position's status as `apply` writes it.
#[repr(C)]
pub struct Status {
    to_move: i32,
    over: i32,
    winner: i32,
    chance: i32,
    reason: *const c_char,
}

/// The table `arbiter_rules_v1` returns.
#[repr(C)]
pub struct RulesV1 {
    abi: u32,
    open: extern "C" fn() -> *mut c_void,
    close: unsafe extern "C" fn(*mut c_void),
    request: unsafe extern "C" fn(*mut c_void, *const u8, usize, *mut u8, usize) -> usize,
    count: unsafe extern "C" fn(*mut c_void, *const u8, usize) -> i64,
    apply: unsafe extern "C" fn(
        *mut c_void,
        *const u8,
        usize,
        u32,
        *mut u8,
        usize,
        *mut Status,
    ) -> i64,
    move_text: unsafe extern "C" fn(*mut c_void, *const u8, usize, u32, *mut u8, usize) -> i64,
    evaluate: unsafe extern "C" fn(*mut c_void, *const u8, usize, u32, *mut f64) -> i32,
}

static RULES: RulesV1 = RulesV1 {
    abi: ABI,
    open,
    close,
    request,
    count,
    apply,
    move_text,
    evaluate,
};

/// The library's entry point: its table of functions.
#[unsafe(no_mangle)]
pub extern "C" fn arbiter_rules_v1() -> *const RulesV1 {
    &RULES
}

extern "C" fn open() -> *mut c_void {
    Box::into_raw(Box::new(Context::new())).cast()
}

/// # Safety
/// A context `open` made, not used again.
unsafe extern "C" fn close(context: *mut c_void) {
    // SAFETY: the caller's promise.
    drop(unsafe { Box::from_raw(context.cast::<Context>()) });
}

/// The context and the bytes of a call's text.
///
/// # Safety
/// A context `open` made, used by this call alone, and `len` readable bytes at `text`.
unsafe fn parts<'a>(
    context: *mut c_void,
    text: *const u8,
    len: usize,
) -> (&'a mut Context, &'a [u8]) {
    // SAFETY: the caller's promise.
    unsafe {
        (
            &mut *context.cast::<Context>(),
            std::slice::from_raw_parts(text, len),
        )
    }
}

/// Copies `bytes` into `out` when they fit; returns their length either way.
///
/// # Safety
/// `cap` writable bytes at `out`.
unsafe fn give(bytes: &[u8], out: *mut u8, cap: usize) -> usize {
    if bytes.len() <= cap {
        // SAFETY: the caller's promise; the two never overlap.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, bytes.len()) };
    }
    bytes.len()
}

/// # Safety
/// As [`parts`] and [`give`].
unsafe extern "C" fn request(
    context: *mut c_void,
    line: *const u8,
    len: usize,
    out: *mut u8,
    cap: usize,
) -> usize {
    // SAFETY: the caller's promise.
    let (context, line) = unsafe { parts(context, line, len) };
    let reply = context.request(&String::from_utf8_lossy(line));
    // SAFETY: the caller's promise.
    unsafe { give(reply.as_bytes(), out, cap) }
}

/// # Safety
/// As [`parts`].
unsafe extern "C" fn count(context: *mut c_void, position: *const u8, len: usize) -> i64 {
    // SAFETY: the caller's promise.
    let (context, position) = unsafe { parts(context, position, len) };
    match context.board(position) {
        Ok((board, shape)) => board.open(&shape).count() as i64,
        Err(_) => -1,
    }
}

/// # Safety
/// As [`parts`] and [`give`], and a writable status.
unsafe extern "C" fn apply(
    context: *mut c_void,
    position: *const u8,
    len: usize,
    index: u32,
    out: *mut u8,
    cap: usize,
    status: *mut Status,
) -> i64 {
    // SAFETY: the caller's promise.
    let (context, position) = unsafe { parts(context, position, len) };
    let Ok((mut board, shape)) = context.board(position) else {
        return -1;
    };
    let Some(column) = board.open(&shape).nth(index as usize) else {
        return -1;
    };
    if len + 1 > cap {
        return (len + 1) as i64;
    }
    board.play(column, &shape);
    // SAFETY: the caller's promise: `cap` >= len + 1 writable bytes, a writable status.
    unsafe {
        std::ptr::copy_nonoverlapping(position.as_ptr(), out, len);
        *out.add(len) = b'1' + column as u8;
        *status = Status {
            to_move: (board.plies % 2) as i32,
            over: i32::from(board.result != 0),
            winner: match board.result {
                1 => 0,
                2 => 1,
                _ => -1,
            },
            chance: 0,
            reason: match board.result {
                3 => c"board-full".as_ptr(),
                _ => c"four-in-a-row".as_ptr(),
            },
        };
    }
    (len + 1) as i64
}

/// # Safety
/// As [`parts`] and [`give`].
unsafe extern "C" fn move_text(
    context: *mut c_void,
    position: *const u8,
    len: usize,
    index: u32,
    out: *mut u8,
    cap: usize,
) -> i64 {
    // SAFETY: the caller's promise.
    let (context, position) = unsafe { parts(context, position, len) };
    let Ok((board, shape)) = context.board(position) else {
        return -1;
    };
    match board.open(&shape).nth(index as usize) {
        // SAFETY: the caller's promise.
        Some(column) => unsafe { give(&[b'1' + column as u8], out, cap) as i64 },
        None => -1,
    }
}

/// # Safety
/// As [`parts`], and a writable value.
unsafe extern "C" fn evaluate(
    context: *mut c_void,
    position: *const u8,
    len: usize,
    player: u32,
    value: *mut f64,
) -> i32 {
    // SAFETY: the caller's promise.
    let (context, position) = unsafe { parts(context, position, len) };
    match context.board(position) {
        Ok((board, shape)) if player < 2 => {
            // SAFETY: the caller's promise.
            unsafe { *value = board.windows_value(player, &shape) };
            0
        }
        _ => -1,
    }
}
