//! Drawings of a puzzle run's solutions, from solves.csv's `solution` column: Flow Free
//! grids as pipes between their sources, Word Sudoku grids as letters in their 3x3 boxes;
//! puzzles no solver solved are drawn as a marked empty panel. One chart of small
//! panels, in the charts' style.

use super::charts::{Chart, fail, font, style};
use crate::records::rows::SolveRow;
use crate::registry::InputError;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Puzzles drawn at most (the first ones of solves.csv).
pub const MAX_PANELS: usize = 12;
const PANELS_PER_ROW: usize = 4;
const PANEL: u32 = 240;

/// One puzzle to draw: its name, the solver whose solution is drawn, and the solution
/// (empty when no solver solved it; then the statuses seen).
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    /// Puzzle file name.
    pub puzzle: String,
    /// The solver drawn, or the statuses when unsolved.
    pub by: String,
    /// solves.csv's `solution` text (empty: unsolved).
    pub solution: String,
}

/// The panels of a run: per puzzle (in order of first appearance), the first solved
/// solve, else an unsolved panel naming the statuses.
pub fn panels(rows: &[SolveRow]) -> Vec<Panel> {
    let mut panels: Vec<Panel> = Vec::new();
    for row in rows {
        let solved = row.status == "solved" && !row.solution.is_empty();
        match panels.iter_mut().find(|p| p.puzzle == row.puzzle) {
            Some(panel) if panel.solution.is_empty() && solved => {
                panel.by = row.solver.clone();
                panel.solution = row.solution.clone();
            }
            Some(panel) if panel.solution.is_empty() => {
                if !panel.by.contains(&row.status) {
                    panel.by.push_str(&format!(", {}", row.status));
                }
            }
            Some(_) => {}
            None => panels.push(Panel {
                puzzle: row.puzzle.clone(),
                by: if solved {
                    row.solver.clone()
                } else {
                    format!("unsolved: {}", row.status)
                },
                solution: if solved {
                    row.solution.clone()
                } else {
                    String::new()
                },
            }),
        }
    }
    panels.truncate(MAX_PANELS);
    panels
}

/// A Flow Free solution read back: per cell its colour letter and whether it is a
/// source, rows of `cols` cells.
fn flow_cells(solution: &str) -> Vec<Vec<(char, bool)>> {
    solution
        .split('/')
        .map(|row| {
            let mut cells: Vec<(char, bool)> = Vec::new();
            for c in row.chars() {
                match (c, cells.last_mut()) {
                    ('*', Some(last)) => last.1 = true,
                    _ => cells.push((c, false)),
                }
            }
            cells
        })
        .collect()
}

/// The pipes of one colour: from a source, step to an unvisited cell of the colour
/// (fewest onward choices first) until the other source; links between consecutive
/// cells, as (row, col) pairs. Cells the walk misses are linked to their neighbours.
fn pipes(cells: &[Vec<(char, bool)>], colour: char) -> Vec<[(usize, usize); 2]> {
    let rows = cells.len();
    let cols = cells.first().map_or(0, Vec::len);
    let of = |r: usize, c: usize| cells.get(r).and_then(|row| row.get(c)).map(|x| x.0);
    let neighbours = |(r, c): (usize, usize)| {
        let mut out = Vec::with_capacity(4);
        if r > 0 {
            out.push((r - 1, c));
        }
        if r + 1 < rows {
            out.push((r + 1, c));
        }
        if c > 0 {
            out.push((r, c - 1));
        }
        if c + 1 < cols {
            out.push((r, c + 1));
        }
        out.into_iter()
            .filter(move |&(nr, nc)| of(nr, nc) == Some(colour))
    };
    let mine: Vec<(usize, usize)> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| of(r, c) == Some(colour))
        .collect();
    let mut visited = vec![vec![false; cols]; rows];
    let mut links = Vec::new();
    if let Some(&start) = mine.iter().find(|&&(r, c)| cells[r][c].1) {
        let mut at = start;
        visited[at.0][at.1] = true;
        loop {
            let next = neighbours(at)
                .filter(|&(r, c)| !visited[r][c])
                .min_by_key(|&cell| neighbours(cell).filter(|&(r, c)| !visited[r][c]).count());
            let Some(next) = next else { break };
            links.push([at, next]);
            visited[next.0][next.1] = true;
            at = next;
            if cells[at.0][at.1].1 {
                break;
            }
        }
    }
    for &cell in &mine {
        if !visited[cell.0][cell.1] {
            for other in neighbours(cell) {
                links.push([cell, other]);
            }
        }
    }
    links
}

/// A colour for Flow colour number `index`: the chart palette, then hues spread round.
fn flow_colour(index: usize) -> RGBColor {
    if index < 7 {
        return style::colour(index);
    }
    let hue = (index as f64 * 137.508) % 360.0;
    let (s, l) = (0.65, 0.5);
    let c = (1.0 - (2.0 * l - 1.0f64).abs()) * s;
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round() as u8;
    RGBColor(byte(r), byte(g), byte(b))
}

/// Every solved (or unsolved) puzzle of a run in small panels.
pub struct Solutions {
    /// The panels, in order.
    pub panels: Vec<Panel>,
}

impl Chart for Solutions {
    fn size(&self) -> (u32, u32) {
        let rows = self.panels.len().div_ceil(PANELS_PER_ROW).max(1) as u32;
        (PANEL * PANELS_PER_ROW as u32 + 40, 50 + (PANEL + 30) * rows)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), InputError> {
        let (title, body) = root.split_vertically(50);
        title
            .draw(&Text::new(
                "Solutions (each puzzle as the first solver to solve it left it)".to_string(),
                (15, 15),
                font(style::TITLE),
            ))
            .map_err(fail)?;
        let rows = self.panels.len().div_ceil(PANELS_PER_ROW).max(1);
        let areas = body.split_evenly((rows, PANELS_PER_ROW));
        for (panel, area) in self.panels.iter().zip(&areas) {
            let (w, h) = area.dim_in_pixel();
            area.draw(&Text::new(
                format!("{} ({})", panel.puzzle, panel.by),
                (w as i32 / 2, 4),
                font(style::SMALL).pos(Pos::new(HPos::Center, VPos::Top)),
            ))
            .map_err(fail)?;
            let inner = (w.min(h) as i32 - 40).max(40);
            let left = (w as i32 - inner) / 2;
            let top = 24;
            if panel.solution.is_empty() {
                area.draw(&Rectangle::new(
                    [(left, top), (left + inner, top + inner)],
                    style::GREY.stroke_width(1),
                ))
                .map_err(fail)?;
                for (a, b) in [
                    ((left, top), (left + inner, top + inner)),
                    ((left + inner, top), (left, top + inner)),
                ] {
                    area.draw(&PathElement::new(vec![a, b], style::GREY.stroke_width(1)))
                        .map_err(fail)?;
                }
            } else if let Some((grid, words)) = panel.solution.split_once('|') {
                draw_words(area, grid, words, (left, top), inner)?;
            } else {
                draw_flow(area, &panel.solution, (left, top), inner)?;
            }
        }
        Ok(())
    }
}

fn draw_flow<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    solution: &str,
    (left, top): (i32, i32),
    size: i32,
) -> Result<(), InputError> {
    let cells = flow_cells(solution);
    let (rows, cols) = (cells.len(), cells.first().map_or(1, Vec::len));
    let cell = (size / rows.max(cols) as i32).max(2);
    let centre = |(r, c): (usize, usize)| {
        (
            left + cell * c as i32 + cell / 2,
            top + cell * r as i32 + cell / 2,
        )
    };
    let mut colours: Vec<char> = Vec::new();
    for row in &cells {
        for &(c, _) in row {
            if !colours.contains(&c) {
                colours.push(c);
            }
        }
    }
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (left + cell * c as i32, top + cell * r as i32);
            area.draw(&Rectangle::new(
                [(x, y), (x + cell, y + cell)],
                RGBColor(245, 245, 245).filled(),
            ))
            .map_err(fail)?;
            area.draw(&Rectangle::new(
                [(x, y), (x + cell, y + cell)],
                RGBColor(210, 210, 210).stroke_width(1),
            ))
            .map_err(fail)?;
        }
    }
    for (index, &colour) in colours.iter().enumerate() {
        let paint = flow_colour(index);
        for [a, b] in pipes(&cells, colour) {
            area.draw(&PathElement::new(
                vec![centre(a), centre(b)],
                paint.stroke_width((cell as u32 / 3).max(2)),
            ))
            .map_err(fail)?;
        }
        for (r, row) in cells.iter().enumerate() {
            for (c, &(letter, source)) in row.iter().enumerate() {
                if letter == colour && source {
                    area.draw(&Circle::new(
                        centre((r, c)),
                        (cell / 3).max(2),
                        paint.filled(),
                    ))
                    .map_err(fail)?;
                }
            }
        }
    }
    Ok(())
}

fn draw_words<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    grid: &str,
    words: &str,
    (left, top): (i32, i32),
    size: i32,
) -> Result<(), InputError> {
    let rows: Vec<Vec<char>> = grid.split('/').map(|r| r.chars().collect()).collect();
    let n = rows.len().max(1) as i32;
    let cell = size / n;
    // Cells a placed word covers are shaded, the rest (given letters) left white.
    let mut covered = vec![vec![false; n as usize]; n as usize];
    for word in words.split(';').filter(|w| !w.is_empty()) {
        let Some((place, text)) = word.split_once(':') else {
            continue;
        };
        let parts: Vec<&str> = place.split(',').collect();
        let (Some(r), Some(c)) = (
            parts.get(1).and_then(|v| v.parse::<usize>().ok()),
            parts.get(2).and_then(|v| v.parse::<usize>().ok()),
        ) else {
            continue;
        };
        for i in 0..text.chars().count() {
            let (r, c) = if parts[0] == "V" {
                (r + i, c)
            } else {
                (r, c + i)
            };
            if let Some(cell) = covered.get_mut(r).and_then(|row| row.get_mut(c)) {
                *cell = true;
            }
        }
    }
    for (r, row) in rows.iter().enumerate() {
        for (c, &letter) in row.iter().enumerate() {
            let (x, y) = (left + cell * c as i32, top + cell * r as i32);
            let fill = if covered[r][c] {
                RGBColor(222, 235, 247)
            } else {
                WHITE
            };
            area.draw(&Rectangle::new(
                [(x, y), (x + cell, y + cell)],
                fill.filled(),
            ))
            .map_err(fail)?;
            area.draw(&Rectangle::new(
                [(x, y), (x + cell, y + cell)],
                RGBColor(180, 180, 180).stroke_width(1),
            ))
            .map_err(fail)?;
            area.draw(&Text::new(
                letter.to_string(),
                (x + cell / 2, y + cell / 2),
                font(style::SMALL).pos(Pos::new(HPos::Center, VPos::Center)),
            ))
            .map_err(fail)?;
        }
    }
    // The 3x3 boxes.
    for k in (0..=n).step_by(3) {
        let at = k * cell;
        for line in [
            vec![(left + at, top), (left + at, top + n * cell)],
            vec![(left, top + at), (left + n * cell, top + at)],
        ] {
            area.draw(&PathElement::new(line, BLACK.stroke_width(2)))
                .map_err(fail)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flow_solution_is_walked_from_source_to_source() {
        // R runs from (0,0) round the corner to (1,1); B from (1,0) down and right.
        let cells = flow_cells("R*R/B*R*/BB*");
        assert_eq!(cells[0], vec![('R', true), ('R', false)]);
        assert_eq!(pipes(&cells, 'R'), vec![[(0, 0), (0, 1)], [(0, 1), (1, 1)]]);
        assert_eq!(pipes(&cells, 'B'), vec![[(1, 0), (2, 0)], [(2, 0), (2, 1)]]);
    }

    #[test]
    fn panels_take_the_first_solution_and_name_the_statuses_of_unsolved_puzzles() {
        let row = |puzzle: &str, solver: &str, status: &str, solution: &str| SolveRow {
            puzzle: puzzle.to_string(),
            rows: 2,
            cols: 2,
            colours: 1,
            solver: solver.to_string(),
            seed: 1,
            status: status.to_string(),
            assignments: 0,
            placed: 0,
            nodes: 0,
            backtracks: 0,
            ms: 0.0,
            solution: solution.to_string(),
        };
        let panels = panels(&[
            row("a", "brute", "limit", ""),
            row("a", "sat", "solved", "R*R*"),
            row("a", "mrv", "solved", "R*R*"),
            row("b", "brute", "limit", ""),
            row("b", "sat", "unsolvable", ""),
        ]);
        assert_eq!(panels.len(), 2);
        assert_eq!(
            (panels[0].by.as_str(), panels[0].solution.as_str()),
            ("sat", "R*R*")
        );
        assert_eq!(panels[1].by, "unsolved: limit, unsolvable");
        assert!(panels[1].solution.is_empty());
    }
}
