//! Charts, drawn with plotters into SVG and PNG. One style for all (size, font, palette);
//! the font is DejaVu Sans compiled into the program, so charts render on a machine with no
//! font packages. Every axis says what it measures and in which unit; legends sit beside
//! the plot, never on the data.

use crate::registry::InputError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use std::sync::Once;

/// The one chart style.
pub mod style {
    use plotters::style::RGBColor;

    /// Font family name the embedded font is registered under.
    pub const FONT: &str = "sans-serif";
    /// Title size in pixels.
    pub const TITLE: u32 = 20;
    /// Label size in pixels.
    pub const LABEL: u32 = 14;
    /// Small text (cell values, legends) in pixels.
    pub const SMALL: u32 = 12;
    /// Approximate width of one character of label text, for sizing label areas.
    pub const CHAR_WIDTH: u32 = 8;
    /// Chart width in pixels (height depends on the number of rows).
    pub const WIDTH: u32 = 960;
    /// Line and point colours, in order (colour-blind safe, Okabe-Ito).
    pub const PALETTE: [RGBColor; 8] = [
        RGBColor(0, 114, 178),
        RGBColor(213, 94, 0),
        RGBColor(0, 158, 115),
        RGBColor(204, 121, 167),
        RGBColor(230, 159, 0),
        RGBColor(86, 180, 233),
        RGBColor(240, 228, 66),
        RGBColor(0, 0, 0),
    ];
    /// Grey for reference lines and empty cells.
    pub const GREY: RGBColor = RGBColor(150, 150, 150);

    /// The palette colour for series `index`.
    pub fn colour(index: usize) -> RGBColor {
        PALETTE[index % PALETTE.len()]
    }

    /// A white-to-blue colour for a rate in [0, 1].
    pub fn heat(rate: f64) -> RGBColor {
        let t = rate.clamp(0.0, 1.0);
        let mix = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
        RGBColor(mix(247.0, 8.0), mix(251.0, 69.0), mix(255.0, 148.0))
    }
}

fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bytes are a valid TrueType font shipped by the dejavu crate.
        let _ =
            plotters::style::register_font(style::FONT, FontStyle::Normal, dejavu::sans::regular());
    });
}

/// plotters' error as what failed: the chart could not be drawn, in words (the file is
/// named by [`save`], which knows it).
pub(super) fn fail(error: impl std::fmt::Display) -> InputError {
    // One line in words: the backends wrap an I/O error's Debug text ("ImageError(IoError(Os
    // { .. message: \"No space left on device\" }))"); its message is what a reader needs.
    let text = error.to_string();
    let message = text
        .split_once("message: \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or(text.as_str(), |(message, _)| message);
    // plotters' own wrappers ("backend error: Drawing backend error: ...") say nothing a
    // reader needs: the cause is what follows them.
    let mut message = message.trim();
    for wrapper in ["backend error:", "Drawing backend error:", "Drawing error:"] {
        message = message
            .trim_start()
            .strip_prefix(wrapper)
            .unwrap_or(message)
            .trim_start();
    }
    let words = message.split_whitespace().collect::<Vec<_>>().join(" ");
    InputError::new(format!("cannot draw the chart: {words}"))
}

/// A chart that can draw itself on any plotters backend.
pub trait Chart {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws on `root`.
    ///
    /// # Errors
    /// A drawing error, without its file.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError>;
}

/// Writes `<stem>.svg` and `<stem>.png` into `folder`; returns the SVG's text (a page embeds it).
///
/// # Errors
/// A drawing or file error, naming the file.
pub fn save<C: Chart>(chart: &C, folder: &Path, stem: &str) -> Result<String, InputError> {
    register_font();
    let svg_path = folder.join(format!("{stem}.svg"));
    let png = folder.join(format!("{stem}.png"));
    let mut svg = String::new();
    (|| -> Result<(), InputError> {
        let root = SVGBackend::with_string(&mut svg, chart.size()).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        chart.draw(&root)?;
        root.present().map_err(fail)
    })()
    .map_err(|e| InputError::in_file(&svg_path, None, e.message))?;
    std::fs::write(&svg_path, &svg).map_err(|e| {
        // The error in words, without its number (as the PNG's says it).
        let text = e.to_string();
        let words = text.split(" (os error").next().unwrap_or(&text);
        InputError::in_file(&svg_path, None, fail(words).message)
    })?;
    (|| -> Result<(), InputError> {
        let root = BitMapBackend::new(&png, chart.size()).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        chart.draw(&root)?;
        root.present().map_err(fail)
    })()
    .map_err(|e| InputError::in_file(&png, None, e.message))?;
    Ok(svg)
}

fn text_width(texts: impl IntoIterator<Item = usize>) -> u32 {
    let longest = texts.into_iter().max().unwrap_or(0) as u32;
    (longest * style::CHAR_WIDTH + 20).clamp(60, LABEL_AREA)
}

/// The widest label area beside a chart's rows, in pixels.
const LABEL_AREA: u32 = 640;
/// The characters a label of that area holds.
const LABEL_CHARS: usize = ((LABEL_AREA - 20) / style::CHAR_WIDTH) as usize;

/// `label` as drawn beside a row: one too long for the label area keeps its start and its
/// end around an ellipsis, rather than being cut at the image's left edge.
fn fitted(label: &str) -> String {
    let chars = label.chars().count();
    if chars <= LABEL_CHARS {
        return label.to_string();
    }
    let head = (LABEL_CHARS - 1) / 2;
    let tail = LABEL_CHARS - 1 - head;
    let start: String = label.chars().take(head).collect();
    let end: String = label.chars().skip(chars - tail).collect();
    format!("{start}…{end}")
}

/// The label of row segment `v` of a chart whose rows are `labels`, top first.
fn row_label(labels: &[&str], v: &SegmentValue<i32>) -> String {
    match v {
        SegmentValue::CenterOf(i) => usize::try_from(labels.len() as i32 - 1 - i)
            .ok()
            .and_then(|row| labels.get(row))
            .map_or(String::new(), |label| fitted(label)),
        _ => String::new(),
    }
}

pub(super) fn font(size: u32) -> TextStyle<'static> {
    (style::FONT, size).into_font().into()
}

/// Win rate of each row agent against each column agent, with game counts.
pub struct WinMatrix {
    /// Title.
    pub title: String,
    /// Agent names (rows and columns).
    pub agents: Vec<String>,
    /// `cells[row][column]`: (wins, games) of the row agent (a half win for a draw or a
    /// tie, where the caller counts them so).
    pub cells: Vec<Vec<(f64, u64)>>,
    /// What the columns are: `opponent`, say.
    pub columns: String,
}

impl Chart for WinMatrix {
    fn size(&self) -> (u32, u32) {
        let n = self.agents.len() as u32;
        let label = text_width(self.agents.iter().map(|a| a.len() + 4));
        ((label + 90 * n + 60).max(480), (70 * n + 160).max(320))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
        let n = self.agents.len() as i32;
        let label = text_width(self.agents.iter().map(|a| a.len() + 4));
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, font(style::TITLE))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(label)
            .build_cartesian_2d((0..n - 1).into_segmented(), (0..n - 1).into_segmented())
            .map_err(fail)?;
        let names = &self.agents;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(n as usize)
            .y_labels(n as usize)
            .x_desc(format!("{} (column number = row number)", self.columns))
            .y_desc("agent")
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => format!("{}", i + 1),
                _ => String::new(),
            })
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => {
                    let row = (n - 1 - i) as usize;
                    names.get(row).map_or(String::new(), |name| {
                        fitted(&format!("{name} ({})", row + 1))
                    })
                }
                _ => String::new(),
            })
            .label_style(font(style::LABEL))
            .axis_desc_style(font(style::LABEL))
            .draw()
            .map_err(fail)?;
        for (row, cells) in self.cells.iter().enumerate() {
            for (column, &(wins, games)) in cells.iter().enumerate() {
                let y = n - 1 - row as i32;
                let x = column as i32;
                let (fill, text) = if games == 0 {
                    (style::GREY.mix(0.15), "-".to_string())
                } else {
                    let rate = wins / games as f64;
                    (
                        style::heat(rate).mix(1.0),
                        format!("{:.0}% of {games}", 100.0 * rate),
                    )
                };
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [
                            (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                            (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                        ],
                        fill.filled(),
                    )))
                    .map_err(fail)?;
                let dark = games > 0 && wins / games as f64 > 0.6;
                let colour = if dark { WHITE } else { BLACK };
                chart
                    .draw_series(std::iter::once(Text::new(
                        text,
                        (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y)),
                        font(style::SMALL)
                            .color(&colour)
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    )))
                    .map_err(fail)?;
            }
        }
        Ok(())
    }
}

/// One labelled estimate with its interval, e.g. a win rate and its 95% interval.
#[derive(Clone, Debug)]
pub struct Interval {
    /// Row label.
    pub label: String,
    /// Point estimate.
    pub value: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

/// Horizontal points with interval bars, one row each, on a 0..1 axis.
pub struct IntervalChart {
    /// Title.
    pub title: String,
    /// Axis description with unit.
    pub x_desc: String,
    /// Rows, top first.
    pub rows: Vec<Interval>,
    /// Where an even share lies (a line): 50% between two players, 1 in N at a table.
    pub even: f64,
}

impl Chart for IntervalChart {
    fn size(&self) -> (u32, u32) {
        (
            style::WIDTH + text_width(self.rows.iter().map(|r| r.label.len())) / 2,
            36 * self.rows.len() as u32 + 150,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
        let n = self.rows.len() as i32;
        let labels: Vec<&str> = self.rows.iter().map(|r| r.label.as_str()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, font(style::TITLE))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(text_width(labels.iter().map(|l| l.len())))
            // A little room past 0% and 100%, so that a point there shows whole.
            .build_cartesian_2d(-0.012f64..1.012f64, rows_axis(n).into_segmented())
            .map_err(fail)?;
        chart
            .configure_mesh()
            .y_labels(n as usize)
            .x_desc(&self.x_desc)
            .y_label_formatter(&|v| row_label(&labels, v))
            .x_label_formatter(&|x| format!("{:.0}%", 100.0 * x))
            .x_labels(11)
            .bold_line_style(RGBColor(215, 215, 215))
            .light_line_style(RGBColor(245, 245, 245))
            .label_style(font(style::LABEL))
            .axis_desc_style(font(style::LABEL))
            .draw()
            .map_err(fail)?;
        // The even share's line: an even match.
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![
                    (self.even, SegmentValue::Exact(rows_axis(n).start)),
                    (self.even, SegmentValue::Exact(rows_axis(n).end + 1)),
                ],
                style::GREY.stroke_width(1),
            )))
            .map_err(fail)?;
        for (index, row) in self.rows.iter().enumerate() {
            let y = SegmentValue::CenterOf(n - 1 - index as i32);
            let colour = style::colour(0);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(row.low, y.clone()), (row.high, y.clone())],
                    colour.stroke_width(2),
                )))
                .map_err(fail)?;
            chart
                .draw_series(std::iter::once(Circle::new(
                    (row.value, y.clone()),
                    5,
                    colour.filled(),
                )))
                .map_err(fail)?;
        }
        Ok(())
    }
}

/// The row axis of `n` horizontal rows (box plots, win rates), one segment each (row `i`
/// at `i`). A single row
/// gets an empty segment on either side: a one-segment axis has no height in plotters,
/// and its row was drawn along the top edge with no label.
fn rows_axis(n: i32) -> std::ops::Range<i32> {
    if n == 1 { -1..1 } else { 0..n - 1 }
}

/// Horizontal box plots (min, quartiles, median, max), one row each.
pub struct BoxChart {
    /// Title.
    pub title: String,
    /// Axis description with unit.
    pub x_desc: String,
    /// Rows, top first: label and five numbers.
    pub rows: Vec<(String, [f64; 5])>,
    /// A logarithmic value axis (for times spanning orders of magnitude).
    pub log: bool,
}

impl Chart for BoxChart {
    fn size(&self) -> (u32, u32) {
        (
            style::WIDTH + text_width(self.rows.iter().map(|r| r.0.len())) / 2,
            40 * self.rows.len() as u32 + 150,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
        // A log axis is drawn as a linear axis of log10 values labelled with the values.
        let to_axis = |v: f64| if self.log { v.max(1e-4).log10() } else { v };
        let rows: Vec<[f64; 5]> = self.rows.iter().map(|r| r.1.map(to_axis)).collect();
        let low = rows.iter().map(|r| r[0]).fold(f64::INFINITY, f64::min);
        let high = rows.iter().map(|r| r[4]).fold(f64::NEG_INFINITY, f64::max);
        let high = if high > low { high } else { low + 1.0 };
        let pad = (high - low) * 0.05;
        let low = if self.log {
            low - pad
        } else {
            (low - pad).max(0.0)
        };
        let n = self.rows.len() as i32;
        let labels: Vec<&str> = self.rows.iter().map(|r| r.0.as_str()).collect();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, font(style::TITLE))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(text_width(labels.iter().map(|l| l.len())))
            .build_cartesian_2d(low..high + pad, rows_axis(n).into_segmented())
            .map_err(fail)?;
        let log = self.log;
        // On a log axis, one label per power of ten once the data spans two or more (no
        // labels at 10^0.5 = 3.2).
        let decades = high + pad - low;
        let x_labels = if log && decades >= 2.0 {
            decades.ceil() as usize + 1
        } else {
            10
        };
        chart
            .configure_mesh()
            .y_labels(n as usize)
            .x_labels(x_labels)
            .bold_line_style(RGBColor(215, 215, 215))
            .light_line_style(RGBColor(245, 245, 245))
            .x_desc(&self.x_desc)
            .x_label_formatter(&|x| {
                let value = if log { 10f64.powf(*x) } else { *x };
                if value >= 100.0 || value == value.round() {
                    format!("{value:.0}")
                } else if value >= 1.0 {
                    format!("{value:.1}")
                } else if value > 0.0 {
                    // Decimals throughout (0.001 beside 0.01, not 1e-3), as many as the
                    // value's first digit needs; 0.10 reads as 0.1.
                    let places = ((-value.log10()).ceil() as usize).clamp(2, 8);
                    let text = format!("{value:.places$}");
                    text.trim_end_matches('0').to_string()
                } else {
                    "0".to_string()
                }
            })
            .y_label_formatter(&|v| row_label(&labels, v))
            .label_style(font(style::LABEL))
            .axis_desc_style(font(style::LABEL))
            .draw()
            .map_err(fail)?;
        for (index, [min, q1, median, q3, max]) in rows.into_iter().enumerate() {
            let y = n - 1 - index as i32;
            let colour = style::colour(index);
            let centre = SegmentValue::CenterOf(y);
            // The range in dark grey with end ticks (a pale palette colour would vanish).
            let whisker = RGBColor(90, 90, 90);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(min, centre.clone()), (max, centre)],
                    whisker.stroke_width(1),
                )))
                .map_err(fail)?;
            let (top, bottom) = (SegmentValue::Exact(y), SegmentValue::Exact(y + 1));
            for end in [min, max] {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(end, top.clone()), (end, bottom.clone())],
                        whisker.stroke_width(1),
                    )))
                    .map_err(fail)?;
            }
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(q1, top.clone()), (q3, bottom.clone())],
                    colour.mix(0.35).filled(),
                )))
                .map_err(fail)?;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(q1, top.clone()), (q3, bottom.clone())],
                    colour.stroke_width(1),
                )))
                .map_err(fail)?;
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(median, top), (median, bottom)],
                    BLACK.stroke_width(2),
                )))
                .map_err(fail)?;
        }
        Ok(())
    }
}

/// Whether series `index` is drawn dashed: the second round of the palette's colours.
fn dashed(index: usize) -> bool {
    (index / style::PALETTE.len()) % 2 == 1
}

/// Lines of y against x on a logarithmic y axis, with grey reference curves, a legend
/// beside the plot.
pub struct LogLines {
    /// Title.
    pub title: String,
    /// x axis description with unit.
    pub x_desc: String,
    /// y axis description with unit.
    pub y_desc: String,
    /// Named series of (x, y) points.
    pub series: Vec<(String, Vec<(f64, f64)>)>,
    /// Named reference curves, drawn dashed-grey.
    pub references: Vec<(String, Vec<(f64, f64)>)>,
}

impl Chart for LogLines {
    fn size(&self) -> (u32, u32) {
        (style::WIDTH + 60, 560)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
        let legend_width = text_width(
            self.series
                .iter()
                .chain(&self.references)
                .map(|(name, _)| name.len() + 4),
        );
        let (plot, legend) = root.split_horizontally(self.size().0 - legend_width);
        let points = || {
            self.series
                .iter()
                .chain(&self.references)
                .flat_map(|s| s.1.iter())
        };
        let x_low = points().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let x_high = points().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let y_high = self
            .series
            .iter()
            .flat_map(|s| s.1.iter())
            .map(|p| p.1)
            .fold(1.0, f64::max);
        let y_low = self
            .series
            .iter()
            .flat_map(|s| s.1.iter())
            .map(|p| p.1)
            .fold(f64::INFINITY, f64::min)
            .max(1e-4);
        // Whole powers of ten around the data: the axis neither hides points nor wastes
        // decades below them.
        let y_low = 10f64.powf(y_low.log10().floor());
        let (x_low, x_high) = if x_low < x_high {
            (x_low, x_high)
        } else {
            (x_low - 1.0, x_low + 1.0)
        };
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, font(style::TITLE))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(x_low..x_high, (y_low..y_high * 3.0).log_scale())
            .map_err(fail)?;
        chart
            .configure_mesh()
            .x_desc(&self.x_desc)
            .y_desc(&self.y_desc)
            // Every whole x on short axes, about a dozen well-spaced ones on long axes
            // (a game's plies), so that labels never run together.
            .x_labels(((x_high - x_low).round() as usize + 1).min(12))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .light_line_style(RGBColor(238, 238, 238))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .label_style(font(style::LABEL))
            .axis_desc_style(font(style::LABEL))
            .draw()
            .map_err(fail)?;
        for (_, points) in &self.references {
            let visible: Vec<(f64, f64)> = points
                .iter()
                .copied()
                .filter(|&(_, y)| y >= y_low && y <= y_high * 3.0)
                .collect();
            chart
                .draw_series(DashedLineSeries::new(
                    visible,
                    6,
                    4,
                    style::GREY.stroke_width(1),
                ))
                .map_err(fail)?;
        }
        for (index, (_, points)) in self.series.iter().enumerate() {
            let colour = style::colour(index);
            // Past the palette's eight colours, lines are dashed so none looks like another.
            if dashed(index) {
                chart
                    .draw_series(DashedLineSeries::new(
                        points.iter().copied(),
                        8,
                        4,
                        colour.stroke_width(2),
                    ))
                    .map_err(fail)?;
            } else {
                chart
                    .draw_series(LineSeries::new(
                        points.iter().copied(),
                        colour.stroke_width(2),
                    ))
                    .map_err(fail)?;
            }
            // Marks on the points only where they are few enough to tell apart.
            let radius = if points.len() <= 30 { 4 } else { 0 };
            if radius > 0 {
                chart
                    .draw_series(
                        points
                            .iter()
                            .map(|&p| Circle::new(p, radius, colour.filled())),
                    )
                    .map_err(fail)?;
            }
        }
        let entries = self
            .series
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name, style::colour(i), dashed(i)))
            .chain(
                self.references
                    .iter()
                    .map(|(name, _)| (name, style::GREY, true)),
            );
        draw_legend(&legend, entries)
    }
}

/// A win rate with its interval's ends, or `None` where the variant did not play.
pub type SweepPoint = Option<(f64, f64, f64)>;

/// Win rate (with its interval) against a swept parameter's values, one line per opponent,
/// the legend beside the plot.
pub struct SweepChart {
    /// Title.
    pub title: String,
    /// The x axis description (what the values are).
    pub x_desc: String,
    /// The parameter's values, in order (x axis labels).
    pub values: Vec<String>,
    /// Per line: its legend text and, per value, (rate, low, high) if played.
    pub lines: Vec<(String, Vec<SweepPoint>)>,
    /// What the rates are: the y axis description.
    pub y_desc: String,
    /// The bottom and top of the y axis ((0, 1): 0% to 100%; a lower top for small rates
    /// such as errors per move, a higher bottom for rates near 100%).
    pub axis: (f64, f64),
}

/// The y axis description of a win rate [`SweepChart`].
pub const WIN_RATE_AXIS: &str = "games won (%), bar: 95% Wilson interval";

/// The bottom and top of a rate axis that shows every point and interval of `lines`:
/// the top the least of 5%, 10%, 20%, 30%, 50% and 100% above them all; the bottom 0, or
/// when every interval lies above 50%, the greatest of 50%, 70%, 80%, 90% and 95% below
/// them all (rates near 100% drawn apart instead of in a band at the top).
pub fn rate_axis(lines: &[(String, Vec<SweepPoint>)]) -> (f64, f64) {
    let points = || lines.iter().flat_map(|(_, points)| points.iter().flatten());
    let highest = points().map(|&(_, _, high)| high).fold(0.0, f64::max);
    let lowest = points().map(|&(_, low, _)| low).fold(1.0, f64::min);
    let top = [0.05, 0.1, 0.2, 0.3, 0.5]
        .into_iter()
        .find(|&top| highest <= top)
        .unwrap_or(1.0);
    let bottom = [0.95, 0.9, 0.8, 0.7, 0.5]
        .into_iter()
        .find(|&bottom| lowest >= bottom && top == 1.0)
        .unwrap_or(0.0);
    (bottom, top)
}

impl SweepChart {
    /// The x labels: each value, or within a grid's group the last key's value alone
    /// (the key is in the axis title).
    fn ticks(&self) -> Vec<&str> {
        self.values
            .iter()
            .map(|v| match v.rsplit_once(',') {
                Some((_, last)) => last.split_once('=').map_or(last, |(_, value)| value),
                None => v.as_str(),
            })
            .collect()
    }

    /// Per value, its group in a grid sweep: every key but the last (`depth=1` of
    /// `depth=1,enemy_weight=0.5`); None for a sweep of one key.
    fn groups(&self) -> Vec<Option<String>> {
        self.values
            .iter()
            .map(|v| v.rsplit_once(',').map(|(group, _)| group.to_string()))
            .collect()
    }
}

impl Chart for SweepChart {
    fn size(&self) -> (u32, u32) {
        (style::WIDTH + 60, 520)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
        let legend_width = text_width(self.lines.iter().map(|(name, _)| name.len()));
        let (plot, legend) = root.split_horizontally(self.size().0 - legend_width);
        let n = self.values.len();
        // Rows of labels: the last key's values (two rows when staggered) and the groups.
        let grouped = self.values.iter().any(|v| v.contains(','));
        let widest_tick = self.ticks().iter().map(|t| t.len()).max().unwrap_or(0) as u32;
        // The plot's width less the y labels and margins, shared by the values.
        let room = plot.dim_in_pixel().0.saturating_sub(100) / n.max(1) as u32;
        let staggered = widest_tick * style::CHAR_WIDTH + 6 > room;
        let label_rows = 1 + u32::from(grouped) + u32::from(staggered);
        // A grid's axis: the last key, grouped by the others.
        let x_desc = match self.values.first().and_then(|v| v.rsplit_once(',')) {
            Some((group, last)) => {
                let key = |part: &str| part.split('=').next().unwrap_or(part).to_string();
                let outer: Vec<String> = group.split(',').map(key).collect();
                format!("{}, grouped by {}", key(last), outer.join(", "))
            }
            None => self.x_desc.clone(),
        };
        // A little room below the bottom and above the top, so that points there stay
        // whole.
        let (floor, top) = self.axis;
        let span = top - floor;
        let (bottom, roof) = (floor - 0.03 * span, top + 0.03 * span);
        // An axis that does not start at 0% says so, lest its bottom be read as 0.
        let y_desc = if floor > 0.0 {
            format!("{} (axis from {:.0}%)", self.y_desc, 100.0 * floor)
        } else {
            self.y_desc.clone()
        };
        // The values are evenly spaced categories at 0, 1, ...; the lines are set a little
        // apart from each other so that equal points (say two lines at 0%) stay visible.
        let mut chart = ChartBuilder::on(&plot)
            .caption(&self.title, font(style::TITLE))
            .margin(15)
            .x_label_area_size(30 + 18 * label_rows)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, bottom..roof)
            .map_err(fail)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_labels(11)
            .x_desc(&x_desc)
            .y_desc(&y_desc)
            .y_label_formatter(&|y| {
                if span < 0.2 {
                    format!("{:.1}%", 100.0 * y)
                } else {
                    format!("{:.0}%", 100.0 * y)
                }
            })
            .label_style(font(style::LABEL))
            .axis_desc_style(font(style::LABEL))
            .light_line_style(WHITE)
            .draw()
            .map_err(fail)?;
        // A grid sweep's values are combinations (`depth=1,enemy_weight=0.5`) with the last
        // key varying fastest: each group (all keys but the last) is labelled once under
        // its span, its values by the last key alone, a line marks where groups meet, and
        // the lines are not drawn across it.
        let (left, _) = chart.backend_coord(&(-0.5, 0.0));
        let (right, _) = chart.backend_coord(&(n as f64 - 0.5, 0.0));
        let slot = (right - left) / n.max(1) as i32;
        let groups = self.groups();
        let ticks = self.ticks();
        let widest = widest_tick as i32;
        let stagger = widest * style::CHAR_WIDTH as i32 + 6 > slot;
        for (i, tick) in ticks.iter().enumerate() {
            let x = i as f64;
            let boundary = i > 0 && groups[i] != groups[i - 1];
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, bottom), (x, roof)],
                    style::GREY.mix(0.3).stroke_width(1),
                )))
                .map_err(fail)?;
            if boundary {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x - 0.5, bottom), (x - 0.5, roof)],
                        style::GREY.mix(0.8).stroke_width(1),
                    )))
                    .map_err(fail)?;
            }
            let (px, py) = chart.backend_coord(&(x, bottom));
            let lower = if stagger && i % 2 == 1 { 15 } else { 0 };
            plot.draw(&Text::new(
                tick.to_string(),
                (px, py + 6 + lower),
                font(style::LABEL).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(fail)?;
        }
        let mut start = 0;
        while start < n {
            let end = (start..n)
                .find(|&i| groups[i] != groups[start])
                .unwrap_or(n);
            if let Some(group) = &groups[start] {
                let middle = (start + end - 1) as f64 / 2.0;
                let (px, py) = chart.backend_coord(&(middle, bottom));
                let below = if stagger { 34 } else { 19 };
                plot.draw(&Text::new(
                    group.clone(),
                    (px, py + 6 + below),
                    font(style::LABEL).pos(Pos::new(HPos::Center, VPos::Top)),
                ))
                .map_err(fail)?;
            }
            start = end;
        }
        let spread = 0.06;
        let middle = (self.lines.len() as f64 - 1.0) / 2.0;
        for (index, (_, points)) in self.lines.iter().enumerate() {
            let colour = style::colour(index);
            let shift = (index as f64 - middle) * spread;
            // One line per group of the grid: never joined across groups.
            let mut start = 0;
            while start < n {
                let end = (start..n)
                    .find(|&i| groups[i] != groups[start])
                    .unwrap_or(n);
                let present: Vec<(f64, f64)> = (start..end)
                    .filter_map(|i| {
                        points
                            .get(i)
                            .copied()
                            .flatten()
                            .map(|(rate, _, _)| (i as f64 + shift, rate))
                    })
                    .collect();
                chart
                    .draw_series(LineSeries::new(present, colour.stroke_width(2)))
                    .map_err(fail)?;
                start = end;
            }
            for (i, point) in points.iter().enumerate() {
                let Some((rate, low, high)) = *point else {
                    continue;
                };
                let x = i as f64 + shift;
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x, low), (x, high)],
                        colour.stroke_width(1),
                    )))
                    .map_err(fail)?;
                chart
                    .draw_series(std::iter::once(Circle::new((x, rate), 4, colour.filled())))
                    .map_err(fail)?;
            }
        }
        let entries =
            (self.lines.iter().enumerate()).map(|(i, (name, _))| (name, style::colour(i), false));
        draw_legend(&legend, entries)
    }
}

/// A legend beside a chart: per line its colour (dashed when asked) and its name, one row
/// each from the top.
fn draw_legend<'a, DB: DrawingBackend>(
    legend: &DrawingArea<DB, Shift>,
    entries: impl Iterator<Item = (&'a String, RGBColor, bool)>,
) -> Result<(), InputError> {
    for (row, (name, colour, dash)) in entries.enumerate() {
        let y = 60 + 24 * row as i32;
        let pieces: &[(i32, i32)] = if dash {
            &[(5, 13), (18, 26)]
        } else {
            &[(5, 30)]
        };
        for &(from, to) in pieces {
            legend
                .draw(&PathElement::new(
                    vec![(from, y), (to, y)],
                    colour.stroke_width(3),
                ))
                .map_err(fail)?;
        }
        legend
            .draw(&Text::new(name.clone(), (38, y - 7), font(style::SMALL)))
            .map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_label_too_long_for_its_area_keeps_its_start_and_end() {
        use plotters::coord::ranged1d::SegmentValue;
        let long = format!(
            "mcts(heuristic=material,{}) vs alphabeta(nodes=3000)",
            "x".repeat(60)
        );
        let fitted = super::fitted(&long);
        assert_eq!(fitted.chars().count(), super::LABEL_CHARS);
        assert!(fitted.starts_with("mcts(heuristic=material,"), "{fitted}");
        assert!(fitted.ends_with("vs alphabeta(nodes=3000)"), "{fitted}");
        assert!(fitted.contains('…'));
        assert_eq!(super::fitted("random vs random"), "random vs random");
        // Rows are listed top first; the axis counts from the bottom; a one-row chart's
        // axis has a segment below its row.
        let labels = ["top", "bottom"];
        assert_eq!(super::row_label(&labels, &SegmentValue::CenterOf(1)), "top");
        assert_eq!(
            super::row_label(&labels, &SegmentValue::CenterOf(0)),
            "bottom"
        );
        assert_eq!(super::row_label(&["only"], &SegmentValue::CenterOf(-1)), "");
        assert_eq!(
            super::row_label(&["only"], &SegmentValue::CenterOf(0)),
            "only"
        );
    }

    #[test]
    fn a_box_chart_of_one_row_labels_it() {
        let folder = tempfile::tempdir().expect("temp dir");
        let chart = BoxChart {
            title: "Game length".to_string(),
            x_desc: "plies".to_string(),
            rows: vec![("only pairing".to_string(), [15.0, 53.0, 65.0, 76.0, 122.0])],
            log: false,
        };
        save(&chart, folder.path(), "one").expect("drawn");
        let svg = std::fs::read_to_string(folder.path().join("one.svg")).expect("svg");
        assert!(svg.contains("only pairing"), "{svg}");
    }

    /// A full disk while a chart is written is one line in words, whichever wrapper
    /// plotters puts around it.
    #[test]
    fn a_drawing_error_is_said_in_words() {
        assert_eq!(
            super::fail(
                "backend error: Drawing backend error: No space left on device (os error 28)"
            )
            .message,
            "cannot draw the chart: No space left on device (os error 28)"
        );
        assert_eq!(
            super::fail(
                "ImageError(IoError(Os { code: 28, kind: StorageFull, message: \"No space left on device\" }))"
            )
            .message,
            "cannot draw the chart: No space left on device"
        );
    }

    #[test]
    fn a_rate_axis_holds_every_interval_and_zooms_on_small_or_near_whole_rates() {
        let line = |points: &[(f64, f64, f64)]| {
            vec![(
                "a".to_string(),
                points.iter().map(|&p| Some(p)).collect::<Vec<_>>(),
            )]
        };
        // Errors near 0: 0% to 10%.
        assert_eq!(super::rate_axis(&line(&[(0.03, 0.01, 0.07)])), (0.0, 0.1));
        // Win rates across the range: 0% to 100%.
        assert_eq!(super::rate_axis(&line(&[(0.5, 0.1, 0.9)])), (0.0, 1.0));
        // Fastest wins near 100%: from 90%, the lowest interval's bottom included.
        assert_eq!(
            super::rate_axis(&line(&[(0.97, 0.92, 0.99), (1.0, 0.96, 1.0)])),
            (0.9, 1.0)
        );
        assert_eq!(super::rate_axis(&line(&[(0.8, 0.55, 0.9)])), (0.5, 1.0));
        // A line with no point played: the whole axis.
        assert_eq!(
            super::rate_axis(&[("a".to_string(), vec![None])]),
            (0.0, 0.05)
        );
    }
}
