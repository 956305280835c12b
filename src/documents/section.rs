//! The model of a document's parts: a [`Section`] (title, paragraphs, tables, charts).
//! A leaf: every report of any kind of run builds sections, and the page writer renders
//! them.

use super::table::Table;

/// A section of the report: a title, paragraphs, tables and charts (file stems).
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// Paragraphs of plain text.
    pub text: Vec<String>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Charts drawn into the folder (`<stem>.svg` and `.png`), with a caption and the
    /// SVG's text (index.html embeds it).
    pub charts: Vec<Figure>,
    /// Paragraphs after the tables and charts (notes on their rows).
    pub after: Vec<String>,
}

/// A chart drawn into the run folder, as a document shows it.
#[derive(Clone, Debug, Default)]
pub struct Figure {
    /// The files' stem: `<stem>.svg` and `<stem>.png`.
    pub stem: String,
    /// What it shows, in a line.
    pub caption: String,
    /// The SVG's text, as written to `<stem>.svg`.
    pub svg: String,
}

impl Figure {
    /// The chart of `stem` with `caption`, drawn as `svg`.
    pub fn new(stem: impl Into<String>, caption: impl Into<String>, svg: String) -> Figure {
        Figure {
            stem: stem.into(),
            caption: caption.into(),
            svg,
        }
    }
}
