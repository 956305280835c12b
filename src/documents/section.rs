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
    /// Chart stems (`<stem>.svg` and `.png` in the folder) with a caption.
    pub charts: Vec<(String, String)>,
    /// Paragraphs after the tables and charts (notes on their rows).
    pub after: Vec<String>,
}
