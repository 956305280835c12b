//! Tables rendered three ways: aligned text for the terminal, Markdown and HTML.

use std::fmt::Write as _;

/// The widest first cell (an agent's name) that aligned text keeps in its column.
pub const WIDEST_NAME: usize = 40;

/// A table rendered both as Markdown and as HTML.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column headers.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The table in GitHub Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        out.push_str(&line(&self.headers));
        out.push_str(&line(&vec!["---".to_string(); self.headers.len()]));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    /// The table as aligned text: the first column and the names (the `agent` column)
    /// left-aligned, the others right-aligned, each line indented by two spaces. A name
    /// wider than [`WIDEST_NAME`] (a long inline agent spec) stands on a line of its own,
    /// the row on the next, so that one long name does not push every row's figures off
    /// the screen.
    pub fn aligned(&self) -> String {
        let all: Vec<&Vec<String>> = std::iter::once(&self.headers).chain(&self.rows).collect();
        let width = |cell: &String| cell.chars().count();
        let names = self.headers.iter().position(|h| h == "agent").unwrap_or(0);
        let mut widths: Vec<usize> = (0..self.headers.len())
            .map(|c| {
                all.iter()
                    .map(|row| row.get(c).map_or(0, width))
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        if let Some(column) = widths.get_mut(names) {
            *column = all
                .iter()
                .filter_map(|row| row.get(names).map(width))
                .filter(|&w| w <= WIDEST_NAME)
                .max()
                .unwrap_or(0);
        }
        let mut out = String::new();
        for row in all {
            if let Some(name) = row.get(names).filter(|cell| width(cell) > widths[names]) {
                // On its own line; the row follows with an empty name cell.
                out.push_str("  ");
                out.push_str(name);
                out.push('\n');
            }
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    if c == names && width(cell) > widths[c] {
                        " ".repeat(widths[c])
                    } else if c == 0 || c == names {
                        format!("{cell:<w$}", w = widths[c])
                    } else {
                        format!("{cell:>w$}", w = widths[c])
                    }
                })
                .collect();
            out.push_str("  ");
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out
    }

    /// The table as an HTML `<table>`.
    pub fn html(&self) -> String {
        let mut out = String::from("<table>\n<tr>");
        for header in &self.headers {
            let _ = write!(out, "<th>{}</th>", escape(header));
        }
        out.push_str("</tr>\n");
        for row in &self.rows {
            out.push_str("<tr>");
            for cell in row {
                let _ = write!(out, "<td>{}</td>", escape(cell));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        out
    }
}

/// Text made safe for HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_three_ways() {
        let table = Table {
            headers: vec!["agent".into(), "wins".into()],
            rows: vec![
                vec!["a<b".into(), "12".into()],
                vec!["long name".into(), "3".into()],
            ],
        };
        assert_eq!(
            table.markdown(),
            "| agent | wins |\n| --- | --- |\n| a<b | 12 |\n| long name | 3 |\n"
        );
        assert_eq!(
            table.aligned(),
            "  agent      wins\n  a<b          12\n  long name     3\n"
        );
        assert!(table.html().contains("<td>a&lt;b</td><td>12</td>"));
        // A name longer than WIDEST_NAME gets a line of its own; the others keep theirs.
        let long = "alphabeta(heuristic=linear,depth=3,own=1.25,enemy=-0.75,rows=2)";
        let table = Table {
            headers: vec!["agent".into(), "wins".into()],
            rows: vec![
                vec![long.into(), "7".into()],
                vec!["ab3".into(), "12".into()],
            ],
        };
        assert_eq!(
            table.aligned(),
            format!("  agent  wins\n  {long}\n            7\n  ab3      12\n")
        );
    }
}
