//! The `name(key=value,...)` notation shared by game, agent and heuristic specs.

use std::fmt;
use std::str::FromStr;

/// Something wrong with a spec or one of its settings, with the key it is about when
/// there is one (`depth '0' must be ...` is about `depth`): a file's loader points at that
/// key's line from the key, never from the words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SpecError {
    /// The key the error is about (`depth`, `heuristic`, a heuristic's parameter).
    pub key: Option<String>,
    /// What is wrong, in one line.
    pub message: String,
}

impl SpecError {
    /// An error about the spec as a whole (an unknown algorithm, a malformed text).
    pub fn new(message: impl Into<String>) -> SpecError {
        SpecError {
            key: None,
            message: message.into(),
        }
    }

    /// An error about setting `key`.
    pub fn at(key: impl Into<String>, message: impl Into<String>) -> SpecError {
        SpecError {
            key: Some(key.into()),
            message: message.into(),
        }
    }
}

/// A message of a helper that knows no key (a spec's syntax, a name).
impl From<String> for SpecError {
    fn from(message: String) -> SpecError {
        SpecError::new(message)
    }
}

/// For the callers that print it.
impl From<SpecError> for String {
    fn from(error: SpecError) -> String {
        error.message
    }
}

/// A heuristic's parameter that does not fit is about that parameter, or the heuristic.
impl From<crate::evals::ParamError> for SpecError {
    fn from(error: crate::evals::ParamError) -> SpecError {
        use crate::evals::ParamError;
        let key = match &error {
            ParamError::UnknownKey { key, .. } | ParamError::NotANumber { key, .. } => key.clone(),
            ParamError::Unavailable { .. } => "heuristic".to_string(),
        };
        SpecError::at(key, error.to_string())
    }
}

/// A parsed `name(key=value,...)` string. Keys are unique; order is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The part before the parentheses.
    pub name: String,
    /// The key=value pairs, in the order written.
    pub params: Vec<(String, String)>,
}

impl Spec {
    /// Removes and returns the value of `key`, if present.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let index = self.params.iter().position(|(k, _)| k == key)?;
        Some(self.params.remove(index).1)
    }
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let text = text.trim();
        let (name, rest) = match text.find('(') {
            Some(open) => {
                let inner = text[open + 1..].strip_suffix(')').ok_or_else(|| {
                    format!("'{text}': missing ')' at the end (expected name(key=value,...))")
                })?;
                (&text[..open], Some(inner))
            }
            None => (text, None),
        };
        let name = name.trim();
        let name_ok = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !name_ok {
            return Err(SpecError::new(format!(
                "'{text}': expected a name of letters, digits, '-' or '_' before '('"
            )));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        let parts = split_top_level(rest.unwrap_or("")).map_err(|e| format!("'{text}': {e}"))?;
        for part in parts {
            if part.trim().is_empty() {
                if rest.is_some_and(|r| !r.trim().is_empty()) {
                    return Err(SpecError::new(format!(
                        "'{text}': empty item between commas"
                    )));
                }
                continue;
            }
            let (key, value) = part.split_once('=').ok_or_else(|| {
                SpecError::new(format!("'{text}': '{}' is not key=value", part.trim()))
            })?;
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() {
                return Err(SpecError::new(format!(
                    "'{text}': '{}' is not key=value",
                    part.trim()
                )));
            }
            if params.iter().any(|(k, _)| k == key) {
                return Err(SpecError::new(format!("'{text}': key '{key}' given twice")));
            }
            params.push((key.to_string(), value.to_string()));
        }
        Ok(Spec {
            name: name.to_string(),
            params,
        })
    }
}

/// Splits on commas that are not inside `[...]` (sweep lists like `depth=[1,2,3]`).
///
/// # Errors
/// Brackets that do not pair up, or a list inside a list.
fn split_top_level(text: &str) -> Result<Vec<&str>, SpecError> {
    const LIST: &str = "a sweep list is written key=[a,b,c]";
    let mut parts = Vec::new();
    let (mut open, mut start) = (false, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '[' if open => return Err(SpecError::new(format!("a '[' inside a list ({LIST})"))),
            '[' => open = true,
            ']' if !open => return Err(SpecError::new(format!("a ']' without its '[' ({LIST})"))),
            ']' => open = false,
            ',' if !open => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if open {
        return Err(SpecError::new(format!(
            "a '[' that is never closed ({LIST})"
        )));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// The values of a sweep list `[a,b,c]`, or `None` when `value` is not a list.
pub fn list_values(value: &str) -> Option<Vec<String>> {
    let inner = value.trim().strip_prefix('[')?.strip_suffix(']')?;
    Some(
        inner
            .split(',')
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect(),
    )
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            let items: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", items.join(","))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_parameters() {
        let spec: Spec = " alphabeta( heuristic=offensive2 , depth=4 ) "
            .parse()
            .expect("valid");
        assert_eq!(spec.name, "alphabeta");
        assert_eq!(
            spec.params,
            vec![
                ("heuristic".to_string(), "offensive2".to_string()),
                ("depth".to_string(), "4".to_string())
            ]
        );
        assert_eq!(spec.to_string(), "alphabeta(heuristic=offensive2,depth=4)");
        for (text, expected) in [
            ("ab(w=[0.5,1,2)", "a '[' that is never closed"),
            ("ab(w=0.5,1,2])", "a ']' without its '['"),
            ("ab(w=[0.5,[1,2]])", "a '[' inside a list"),
            ("ab(depth=[2,3,w=1)", "a '[' that is never closed"),
        ] {
            let error = text.parse::<Spec>().expect_err(text).message;
            assert!(
                error.starts_with(&format!("'{text}': {expected}"))
                    && error.contains("key=[a,b,c]"),
                "{error}"
            );
        }
        let bare: Spec = "breakthrough".parse().expect("valid");
        assert!(bare.params.is_empty());
        assert_eq!("random()".parse::<Spec>().map(|s| s.params.len()), Ok(0));
    }

    #[test]
    fn rejects_malformed_specs_with_the_reason() {
        let err = |t: &str| t.parse::<Spec>().expect_err(t).message;
        assert!(err("minimax(depth=3").contains("missing ')'"));
        assert!(err("minimax(depth)").contains("'depth' is not key=value"));
        assert!(err("minimax(depth=3,,x=1)").contains("empty item"));
        assert!(err("minimax(depth=3,depth=4)").contains("given twice"));
        assert!(err("(depth=3)").contains("expected a name"));
        assert!(err("mini max").contains("expected a name"));
        let sweep: Spec = "alphabeta(depth=[1,2],almost_win=[10, 20,30])"
            .parse()
            .expect("lists");
        assert_eq!(sweep.params[0], ("depth".to_string(), "[1,2]".to_string()));
        assert_eq!(
            list_values(&sweep.params[1].1),
            Some(vec!["10".into(), "20".into(), "30".into()])
        );
        assert_eq!(list_values("7"), None);
    }
}
