//! Text helpers every layer shares: move lists as written in files, errors and user input
//! printed on one line, and "did you mean" suggestions.

/// Separates moves in a recorded move list (a game's notation may contain spaces).
pub const MOVE_SEPARATOR: char = ';';

/// The moves of a move list with their 1-based line numbers: one per line or separated by
/// [`MOVE_SEPARATOR`] (as in games.csv), `#` starting a comment, blank lines ignored.
pub fn read_moves(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .flat_map(|(index, line)| {
            let line = line.split('#').next().unwrap_or("");
            line.split(MOVE_SEPARATOR)
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(move |m| (index + 1, m.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `text` as one printable line: control characters a user's input may carry (a CR, a
/// new line, a tab, an escape) are shown escaped (`\r`, `\n`, `\t`, `\u{1b}`) instead
/// of breaking the line or moving the cursor.
pub fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            line.extend(c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

/// An error and its chain of causes as one printable line, `what: why: cause`: how the
/// command line prints an error after `error: `, and how the Python package raises it.
pub fn error_line(error: &(dyn std::error::Error + 'static)) -> String {
    let mut chain = vec![error.to_string()];
    let mut cause = error.source();
    while let Some(next) = cause {
        chain.push(next.to_string());
        cause = next.source();
    }
    one_line(&chain.join(": "))
}

/// The number of single-character insertions, deletions and substitutions from `a` to `b`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The candidate closest to `word` if it is close enough to be a typo of it (at most two
/// edits, or a quarter of its length for long names): for "did you mean" suggestions.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|known| (edit_distance(word, known), known))
        .filter(|&(d, known)| d > 0 && d <= 2.max(known.len() / 4))
        .min()
        .map(|(_, known)| known)
}
