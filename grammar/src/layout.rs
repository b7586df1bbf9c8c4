//! Board layouts: rows of characters → axial hexes.
//!
//! The rules (also in the crate docs):
//!
//! - The layout is a string. Blank lines before the first row and after the last are
//!   ignored; a blank line between rows is an error. Tabs are an error (use spaces).
//! - Row `r` is the `r`-th remaining line, from 0. Hexes are pointy-top.
//! - Within a row, each non-space character is one position, and positions stand one space
//!   apart. Odd rows (the 2nd, 4th...) are shifted right by half a hex, so they start one
//!   space further right: this is the usual "odd-r" offset layout.
//! - The first row's indentation is removed: the offset column of a character at character
//!   column `x` in row `r` is `c = (x - base - r % 2) / 2`, where `base` is the number of
//!   spaces before the first row's first character. `x - base - r % 2` must be even: a
//!   character between two positions is an error. A row may start further left or right
//!   than the first (columns may be negative).
//! - Axial coordinates: `q = c - (r - r % 2) / 2`, `r = r` (redblobgames' odd-r to axial).
//! - `.` is a plain hex, `_` is no hex (a visible gap); any other character must be in the
//!   board's `legend`.

use gloam_core::{BOARD_COORD_LIMIT, Hex};

/// One position read from a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub(crate) hex: Hex,
    pub(crate) symbol: char,
    /// Index of the character in the layout string (in chars).
    pub(crate) index: usize,
}

/// A layout problem at a character index (in chars) of the layout string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LayoutError {
    pub(crate) message: String,
    pub(crate) label: String,
    pub(crate) index: usize,
    /// How many characters the label covers.
    pub(crate) len: usize,
}

/// The help line every layout error carries.
pub(crate) const LAYOUT_HELP: &str = "rows are lines; hexes stand one space apart; odd rows (2nd, 4th...) start one space further right; `.` is a plain hex, `_` no hex, other characters come from `legend`";

/// Reads every position of `layout` (including `.` and `_`; the caller interprets symbols).
pub(crate) fn read(layout: &str) -> Result<Vec<Cell>, Vec<LayoutError>> {
    // Lines as (index of first char, chars).
    let mut lines: Vec<(usize, Vec<char>)> = Vec::new();
    let mut index = 0;
    for line in layout.split('\n') {
        let chars: Vec<char> = line.chars().collect();
        let count = chars.len();
        let mut chars = chars;
        if chars.last() == Some(&'\r') {
            chars.pop();
        }
        lines.push((index, chars));
        index += count + 1;
    }
    let blank = |chars: &Vec<char>| chars.iter().all(|c| *c == ' ' || *c == '\t');
    let first = lines.iter().position(|(_, chars)| !blank(chars));
    let last = lines.iter().rposition(|(_, chars)| !blank(chars));
    let (Some(first), Some(last)) = (first, last) else {
        return Err(vec![LayoutError {
            message: "the layout has no hexes".to_string(),
            label: "empty layout".to_string(),
            index: 0,
            len: layout.chars().count().max(1),
        }]);
    };
    let rows = &lines[first..=last];

    let mut errors = Vec::new();
    for (start, chars) in rows {
        if blank(chars) {
            errors.push(LayoutError {
                message: "blank line inside a layout".to_string(),
                label: "blank row".to_string(),
                index: *start,
                len: chars.len().max(1),
            });
        }
        for (column, c) in chars.iter().enumerate() {
            if *c == '\t' {
                errors.push(LayoutError {
                    message: "tab in a layout".to_string(),
                    label: "use spaces".to_string(),
                    index: start + column,
                    len: 1,
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    let parity = |row: usize| i64::from(row % 2 == 1);
    let indent = |chars: &Vec<char>| chars.iter().take_while(|c| **c == ' ').count();
    let base = rows.first().map_or(0, |(_, chars)| to_i64(indent(chars)));

    let limit = i64::from(BOARD_COORD_LIMIT);
    let mut cells = Vec::new();
    for (row, (start, chars)) in rows.iter().enumerate() {
        let r = to_i64(row);
        let label = if row % 2 == 1 {
            "odd rows start one space further right"
        } else {
            "hexes stand one space apart"
        };
        let mut off_grid: Vec<(usize, char)> = Vec::new();
        let mut positions = 0;
        for (column, symbol) in chars.iter().enumerate() {
            if *symbol == ' ' {
                continue;
            }
            positions += 1;
            let shifted = to_i64(column) - base - parity(row);
            if shifted % 2 != 0 {
                off_grid.push((column, *symbol));
                continue;
            }
            let offset_column = shifted / 2;
            let q = offset_column - (r - parity(row)) / 2;
            if q.abs() > limit || r > limit {
                errors.push(LayoutError {
                    message: "the layout is too large".to_string(),
                    label: "beyond the largest board".to_string(),
                    index: start + column,
                    len: 1,
                });
                return Err(errors);
            }
            let (Ok(q), Ok(r)) = (i32::try_from(q), i32::try_from(r)) else {
                continue;
            };
            cells.push(Cell {
                hex: Hex::new(q, r),
                symbol: *symbol,
                index: start + column,
            });
        }
        match off_grid.as_slice() {
            [] => {}
            [(first, _), .., (last, _)] if off_grid.len() == positions => {
                // The whole row is one space off: one error for the row.
                errors.push(LayoutError {
                    message: format!("row {} is not on the hex grid", row + 1),
                    label: label.to_string(),
                    index: start + first,
                    len: last - first + 1,
                });
            }
            _ => {
                for (column, symbol) in off_grid {
                    errors.push(LayoutError {
                        message: format!("`{symbol}` is not on the hex grid"),
                        label: label.to_string(),
                        index: start + column,
                        len: 1,
                    });
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(cells)
    } else {
        Err(errors)
    }
}

fn to_i64(value: usize) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hexes(layout: &str) -> Vec<(i32, i32, char)> {
        read(layout)
            .unwrap_or_default()
            .into_iter()
            .map(|cell| (cell.hex.q, cell.hex.r, cell.symbol))
            .collect()
    }

    #[test]
    fn odd_rows_shift_right_half_a_hex() {
        let cells = hexes("\n    a b\n     c d\n    e f\n");
        assert_eq!(
            cells,
            vec![
                (0, 0, 'a'),
                (1, 0, 'b'),
                (0, 1, 'c'),
                (1, 1, 'd'),
                (-1, 2, 'e'),
                (0, 2, 'f'),
            ]
        );
        // c is the south-east neighbour of a, e the south-west neighbour of c.
        assert_eq!(
            Hex::new(0, 0).neighbor(gloam_core::Direction::SouthEast),
            Hex::new(0, 1)
        );
        assert_eq!(
            Hex::new(0, 1).neighbor(gloam_core::Direction::SouthWest),
            Hex::new(-1, 2)
        );
    }

    #[test]
    fn a_row_may_start_further_right() {
        assert_eq!(
            hexes("a b c\n   d"),
            vec![(0, 0, 'a'), (1, 0, 'b'), (2, 0, 'c'), (1, 1, 'd')]
        );
    }

    #[test]
    fn misaligned_character_is_an_error() {
        let errors = read("a b\nc d").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].index, errors[0].len), (4, 3));
        let errors = read("a b\n c  d").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].index, errors[0].len), (8, 1));
    }

    #[test]
    fn blank_layout_and_interior_blank_line_are_errors() {
        assert!(read("  \n ").is_err());
        assert!(read("a\n\nb").is_err());
    }
}
