//! JSON written straight into a byte buffer, the same bytes serde_json writes: for the
//! lines sent or recorded for every move or game, where serde_json's general path (a call
//! and a byte-by-byte escape scan for every string, however short) is most of the cost.

/// Appends `text` as a JSON string, as serde_json writes it: `"`, `\` and the control
/// characters below U+0020 escaped, everything else (U+007F and non-ASCII included) as is.
/// A string with nothing to escape, as move texts are, is copied in one piece.
pub fn push_str(out: &mut Vec<u8>, text: &str) {
    // Every byte looked at, without a branch per byte, so that the compiler compares
    // them many at a time (an early exit kept the loop to one byte at a time).
    if !text.bytes().fold(false, |any, byte| any | escaped(byte)) {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        // Writing to a Vec cannot fail, and a str always serializes.
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

/// Whether a JSON string must escape `byte`: a quote, a backslash or a control character
/// (below U+0020; everything else stands as it is in serde_json's output, and may stand
/// so in its input).
pub fn escaped(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// Appends `texts` as JSON strings separated by commas: the inside of a JSON list.
pub fn push_strings<'a>(out: &mut Vec<u8>, texts: impl IntoIterator<Item = &'a str>) {
    for (i, text) in texts.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_str(out, text);
    }
}

/// Appends `value` in decimal. Numbers below 100 (most counts of a cheap game, and every
/// zero) are written as their digits, without itoa's buffer and a copy of it.
#[inline]
pub fn push_u64(out: &mut Vec<u8>, value: u64) {
    if value < 10 {
        out.push(b'0' + value as u8);
    } else if value < 100 {
        out.extend_from_slice(&[b'0' + (value / 10) as u8, b'0' + (value % 10) as u8]);
    } else {
        out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
    }
}

/// Appends `value`, or `null` for none.
pub fn push_opt_u64(out: &mut Vec<u8>, value: Option<u64>) {
    match value {
        Some(value) => push_u64(out, value),
        None => out.extend_from_slice(b"null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_written_as_serde_json_writes_them() {
        let mut texts: Vec<String> = [
            "",
            "a2-a3",
            "say \"hi\"",
            "back\\slash",
            "tab\there",
            "line\nend\r",
            "\u{7f} del, é, 漢字, 🐉",
            "\u{1}\u{1f} \u{20}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every character from U+0000 to U+00FF, alone and between letters.
        for c in (0u32..256).filter_map(char::from_u32) {
            texts.push(c.to_string());
            texts.push(format!("a{c}b"));
        }
        for text in &texts {
            let mut ours = b"[".to_vec();
            push_str(&mut ours, text);
            let theirs = format!("[{}", serde_json::to_string(text).expect("a string"));
            assert_eq!(String::from_utf8(ours).expect("UTF-8"), theirs, "{text:?}");
        }
    }

    #[test]
    fn numbers_are_written_in_decimal_and_none_as_null() {
        let mut out = Vec::new();
        let around_the_paths = [0, 7, 9, 10, 11, 42, 99, 100, 101, 999, 1000, u64::MAX];
        for value in around_the_paths.map(Some).into_iter().chain([None]) {
            out.clear();
            push_opt_u64(&mut out, value);
            assert_eq!(
                out,
                serde_json::to_vec(&value).expect("a number"),
                "{value:?}"
            );
        }
    }
}
