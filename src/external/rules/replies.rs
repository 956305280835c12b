//! Reading a rules program's replies: positions, statuses, returns, chance's
//! probabilities and move texts, each checked, with the one-line error a bad one gets.

use super::*;
/// Whether `name` can name a feature (it becomes part of a `linear` weight's key).
pub(super) fn is_feature_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The `position` string of a reply to `request`.
pub(super) fn position_of(reply: &Value, request: &str) -> Result<Arc<str>, String> {
    reply["position"].as_str().map(Arc::from).ok_or_else(|| {
        format!(
            "answered `{request}` with {} (no \"position\" string)",
            clip(&reply.to_string())
        )
    })
}

/// A status reply read: `{"to_move": "P1"}` or `{"over": true, "winner": "P2" | null,
/// "reason": "..."}` of a game of `players`; reasons are kept (interned) in `reasons`.
pub(super) fn status_of(
    reply: &Value,
    players: usize,
    reasons: &mut Vec<&'static str>,
) -> Result<Status, String> {
    let chance = reply["chance"].as_bool() == Some(true) && reply["over"].as_bool() != Some(true);
    if chance {
        let (to_move, _) = read_status(reply, players)?;
        return Ok(Status {
            to_move,
            chance,
            over: None,
            returns: None,
            round: false,
        });
    }
    let (to_move, over) = parse_status(reply, players)?;
    let returns = returns_in(reply, players, over.is_some()).map_err(|e| e.to_string())?;
    let round = match &reply["round_start"] {
        Value::Null => false,
        Value::String(_) => over.is_none(),
        other => {
            return Err(format!(
                "\"round_start\" must be the position string where the round began (got {})",
                clip(&other.to_string())
            ));
        }
    };
    Ok(Status {
        to_move,
        chance,
        over: over.map(|(winner, reason)| (winner, intern(reason, reasons))),
        returns,
        round,
    })
}

/// A status's `"returns"` that are not one finite number a player.
#[derive(Debug, thiserror::Error)]
#[error("\"returns\" must be {players} finite numbers, one a player from P1's (got {given})")]
pub(super) struct BadReturns {
    pub(super) players: usize,
    /// What the status gave, clipped.
    pub(super) given: String,
}

/// A status's `"returns"`, read where the game is `over` (`None` where it is not, or where
/// the status gives none).
///
/// # Errors
/// Returns that are not a finite number a player.
fn returns_in(reply: &Value, players: usize, over: bool) -> Result<Option<Returns>, BadReturns> {
    match &reply["returns"] {
        Value::Null => Ok(None),
        _ if !over => Ok(None),
        given => returns_of(given, players)
            .map(Some)
            .ok_or_else(|| BadReturns {
                players,
                given: clip(&given.to_string()).to_string(),
            }),
    }
}

/// A finished position's `"returns"`: a finite number a player, P1's first (`None` for
/// anything else).
fn returns_of(given: &Value, players: usize) -> Option<Returns> {
    let numbers: Option<Vec<f64>> = given.as_array().and_then(|list| {
        list.iter()
            .map(|v| v.as_f64().filter(|x| x.is_finite()))
            .collect()
    });
    let numbers = numbers.filter(|n| n.len() == players)?;
    let mut returns = Returns::zeros(players);
    for (&seat, value) in Player::seats(players).iter().zip(numbers) {
        returns[seat] = value;
    }
    Some(returns)
}

/// The seat a label names in a game of `players` (`P1` to `P6`).
fn seat_named(value: &Value, players: usize) -> Option<Player> {
    let label = value.as_str()?;
    Player::seats(players)
        .iter()
        .copied()
        .find(|seat| seat.label() == label)
}

/// The labels of a game's seats, for messages: `"P1" or "P2"`, `"P1" to "P4"`.
fn seat_labels(players: usize) -> String {
    if players == 1 {
        "\"P1\"".to_string()
    } else if players == 2 {
        "\"P1\" or \"P2\"".to_string()
    } else {
        format!("\"P1\" to \"P{players}\"")
    }
}

/// The side to move, and the winner (`None`: a draw) and reason once the game is over.
pub(super) type StatusReply<'a> = (Player, Option<(Option<Player>, &'a str)>);

/// A status reply of a game of `players` read, its reason borrowed from it.
fn parse_status(reply: &Value, players: usize) -> Result<StatusReply<'_>, String> {
    let player = |value: &Value| seat_named(value, players);
    if reply["over"].as_bool() == Some(true) {
        let winner = match &reply["winner"] {
            Value::Null => None,
            value => Some(player(value).ok_or_else(|| {
                format!(
                    "winner must be {} or null (got {value})",
                    seat_labels(players)
                )
            })?),
        };
        let reason = reply["reason"].as_str().unwrap_or("over");
        let to_move = player(&reply["to_move"]).unwrap_or(Player::P1);
        return Ok((to_move, Some((winner, reason))));
    }
    let to_move = player(&reply["to_move"]).ok_or_else(|| {
        format!(
            "expected \"to_move\": {}, or \"over\": true (got {})",
            seat_labels(players),
            clip(&reply.to_string())
        )
    })?;
    Ok((to_move, None))
}

/// What is wrong with chance's probabilities in a `legal` reply.
#[derive(Debug, thiserror::Error)]
pub(super) enum ChanceError {
    /// Not a list of one number a move.
    #[error(
        "answered `legal` with \"chance\": {0} (expected a list of {1} probabilities, one per move)"
    )]
    Shape(String, usize),
    /// A number below 0 or not finite.
    #[error("`legal` gave chance probabilities {0} (each must be a number from 0 to 1)")]
    Range(String),
    /// Numbers that do not sum to 1.
    #[error("`legal` gave chance probabilities that sum to {0}, not 1")]
    Sum(f64),
}

/// Chance's probabilities from a `legal` reply's `"chance"`: one number a move, none
/// negative, summing to 1.
pub(super) fn chance_probabilities(given: &Value, moves: usize) -> Result<Vec<f64>, ChanceError> {
    let numbers: Option<Vec<f64>> = given
        .as_array()
        .and_then(|list| list.iter().map(Value::as_f64).collect());
    let Some(numbers) = numbers.filter(|n| n.len() == moves) else {
        return Err(ChanceError::Shape(clip(&given.to_string()), moves));
    };
    if numbers.iter().any(|p| !p.is_finite() || *p < 0.0) {
        return Err(ChanceError::Range(clip(&given.to_string())));
    }
    let total: f64 = numbers.iter().sum();
    if (total - 1.0).abs() > 1e-6 {
        return Err(ChanceError::Sum(total));
    }
    Ok(numbers)
}

/// `reason` as a `&'static str`: program reasons are few, each kept once per client
/// (beyond [`MAX_REASONS`] they read as `other`).
pub(super) fn intern(reason: &str, reasons: &mut Vec<&'static str>) -> &'static str {
    if let Some(known) = reasons.iter().find(|r| **r == reason) {
        return known;
    }
    if reasons.len() >= MAX_REASONS || reason.len() > 64 {
        return "other";
    }
    let leaked: &'static str = Box::leak(reason.to_string().into_boxed_str());
    reasons.push(leaked);
    leaked
}

/// A 64-bit hash of a position string (FNV-1a, then mixed).
pub(super) fn hash_of(position: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in position.as_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    seeds::mix64(hash)
}

/// A reply line to `request` judged: `None` when it is not a JSON object (a program's
/// stray output, skipped), else the reply of type `expected` or why it is not one.
pub(super) fn judge(request: &str, expected: &str, line: &str) -> Option<Result<Value, String>> {
    let reply = serde_json::from_str::<Value>(line)
        .ok()
        .filter(Value::is_object)?;
    Some(match reply["type"].as_str() {
        Some(kind) if kind == expected => Ok(reply),
        Some("error") => Err(format!(
            "`{request}` failed: {}",
            clip(reply["message"].as_str().unwrap_or("(no message)"))
        )),
        _ => Err(format!(
            "answered `{request}` with {} instead of a `{expected}` reply",
            clip(line)
        )),
    })
}

/// Whether move text `text` holds what records cannot keep in a move: `;` (it separates
/// moves) or a line break (docs/game-protocol.md).
pub(super) fn unrecordable(text: &str) -> bool {
    text.bytes().any(|b| matches!(b, b';' | b'\n' | b'\r'))
}

/// The error for a move text records cannot keep, given by `request`.
pub(super) fn unrecordable_message(request: &str, text: &str) -> String {
    format!(
        "`{request}` gave the move {}, which holds `;` or a line break (a move must hold neither: records separate moves by `;`, docs/game-protocol.md)",
        clip(&serde_json::to_string(text).unwrap_or_default())
    )
}

/// The side to move, and the winner (`None`: a draw) and reason once the game is over.
pub type ReadStatus = (Player, Option<(Option<Player>, String)>);

/// A `status` reply of a game of `players` read: the side to move, and the winner
/// (`None`: a draw) and reason once the game is over.
///
/// # Errors
/// A reply that is neither.
pub fn read_status(reply: &Value, players: usize) -> Result<ReadStatus, String> {
    if reply["chance"].as_bool() == Some(true) && reply["over"].as_bool() != Some(true) {
        // Chance acts: the side that moves after it, if the program says.
        let to_move = seat_named(&reply["to_move"], players).unwrap_or(Player::P1);
        return Ok((to_move, None));
    }
    let (to_move, over) = parse_status(reply, players)?;
    returns_in(reply, players, over.is_some()).map_err(|e| e.to_string())?;
    Ok((
        to_move,
        over.map(|(winner, reason)| (winner, reason.to_string())),
    ))
}
