//! An evaluation of board patterns for the exact solver's move order (the method of the
//! dedicated endgame solvers, Edax's and Egaroucid's family): the board is read as lines and
//! blocks of squares (the edges with their X squares, the corner blocks 3x3 and 2x5, the
//! rows 2 to 4 and the diagonals of 4 to 8 squares, each in its eight images under the
//! board's symmetries), every configuration of a pattern (each square empty, the mover's or
//! the opponent's) has a weight, and the evaluation is the sum of the weights of the
//! configurations on the board, plus a weight per move of mobility more than the opponent.
//!
//! The weights are fitted by least squares to the exact final margins of positions from
//! seeded games, 8 to 18 empties from the end (`arbiter train-order othello`:
//! `experiment::train_order`, docs/games.md), and shipped as `patterns.bin` beside this
//! file. Units: 1/32 of a disc of final margin for the side to move.

/// One pattern: its squares in the base image (`row * 8 + column`, a1 = 0).
struct Pattern {
    squares: &'static [u8],
}

/// The patterns (their base images; each is read in every distinct image).
const PATTERNS: [Pattern; 11] = [
    // The first row with both X squares.
    Pattern {
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    // The corner's 3x3 block.
    Pattern {
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    // The corner's 2x5 block.
    Pattern {
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    // Rows 2, 3 and 4.
    Pattern {
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Pattern {
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Pattern {
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    // The diagonals of 8 to 4 squares.
    Pattern {
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Pattern {
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Pattern {
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Pattern {
        squares: &[3, 12, 21, 30, 39],
    },
    Pattern {
        squares: &[4, 13, 22, 31],
    },
];

/// The most squares a pattern has.
const MOST_SQUARES: usize = 10;

/// `square` under symmetry `k` of the eight (rotations and reflections).
const fn image(square: u8, k: usize) -> u8 {
    let (r, c) = (square / 8, square % 8);
    let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
    let r = if k & 2 != 0 { 7 - r } else { r };
    let c = if k & 1 != 0 { 7 - c } else { c };
    r * 8 + c
}

/// The pattern images read on a board: each with its squares, how many, and where its
/// pattern's weights start.
#[derive(Clone, Copy)]
struct Instance {
    squares: [u8; MOST_SQUARES],
    len: u8,
    offset: u32,
}

/// `3^n`.
const fn power3(n: usize) -> u32 {
    let mut p = 1;
    let mut i = 0;
    while i < n {
        p *= 3;
        i += 1;
    }
    p
}

/// Where each pattern's weights start, and the count of pattern weights.
const OFFSETS: ([u32; PATTERNS.len()], u32) = {
    let mut offsets = [0; PATTERNS.len()];
    let mut at = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        offsets[i] = at;
        at += power3(PATTERNS[i].squares.len());
        i += 1;
    }
    (offsets, at)
};

/// The count of pattern weights.
pub const PATTERN_WEIGHTS: usize = OFFSETS.1 as usize;

/// Weights in all: the patterns', then one per move of mobility and a constant.
pub const WEIGHTS: usize = PATTERN_WEIGHTS + 2;

/// The count of distinct images read on a board.
pub const INSTANCES: usize = 46;

/// Every distinct image of every pattern (two images with the same squares are one).
const TABLE: [Instance; INSTANCES] = {
    let empty = Instance {
        squares: [0; MOST_SQUARES],
        len: 0,
        offset: 0,
    };
    let mut table = [empty; INSTANCES];
    let mut count = 0;
    let mut p = 0;
    while p < PATTERNS.len() {
        let base = PATTERNS[p].squares;
        let mut seen = [0u64; 8];
        let mut k = 0;
        while k < 8 {
            let mut squares = [0u8; MOST_SQUARES];
            let mut set = 0u64;
            let mut i = 0;
            while i < base.len() {
                squares[i] = image(base[i], k);
                set |= 1 << squares[i];
                i += 1;
            }
            let mut new = true;
            let mut j = 0;
            while j < k {
                if seen[j] == set {
                    new = false;
                }
                j += 1;
            }
            seen[k] = set;
            if new {
                table[count] = Instance {
                    squares,
                    len: base.len() as u8,
                    offset: OFFSETS.0[p],
                };
                count += 1;
            }
            k += 1;
        }
        p += 1;
    }
    assert!(count == INSTANCES);
    table
};

/// Lanes of the row tables: [`INSTANCES`] rounded up to a multiple of 8.
const LANES: usize = 48;

/// For each row and each set of discs in it, what those discs add to each image's
/// configuration when they are the mover's (twice that when they are the opponent's): an
/// image's configuration in base 3 is the sum over its squares of `3^k` times 0 (empty), 1
/// (the mover's) or 2 (the opponent's), so it is linear in each side's discs, row by row.
static ROWS: std::sync::LazyLock<Box<[[[u16; LANES]; 256]; 8]>> = std::sync::LazyLock::new(|| {
    let mut rows = Box::new([[[0u16; LANES]; 256]; 8]);
    for (row, table) in rows.iter_mut().enumerate() {
        for (byte, lanes) in table.iter_mut().enumerate() {
            for (lane, instance) in TABLE.iter().enumerate() {
                let mut digit = 1u16;
                for &square in &instance.squares[..instance.len as usize] {
                    let (r, c) = (usize::from(square / 8), square % 8);
                    if r == row && byte >> c & 1 == 1 {
                        lanes[lane] += digit;
                    }
                    digit *= 3;
                }
            }
        }
    }
    rows
});

/// Each image's configuration (0 empty, 1 the mover's, 2 the opponent's; the image's first
/// square the lowest digit in base 3), without its pattern's offset.
#[inline]
fn configurations(own: u64, other: u64) -> [u16; LANES] {
    let rows = &**ROWS;
    let mut sum = [0u16; LANES];
    for (row, table) in rows.iter().enumerate() {
        let mine = &table[(own >> (8 * row)) as u8 as usize];
        let theirs = &table[(other >> (8 * row)) as u8 as usize];
        for lane in 0..LANES {
            sum[lane] += mine[lane] + 2 * theirs[lane];
        }
    }
    sum
}

/// The weight indices of the position with `own` discs to move against `other`: one per
/// image, its pattern's offset plus its configuration.
#[inline]
pub fn indices(own: u64, other: u64) -> [u32; INSTANCES] {
    let sum = configurations(own, other);
    std::array::from_fn(|i| TABLE[i].offset + u32::from(sum[i]))
}

/// The mobility term's input: the mover's moves less the opponent's.
#[inline]
pub fn mobility(own: u64, other: u64) -> i32 {
    super::moves_of(own, other).count_ones() as i32
        - super::moves_of(other, own).count_ones() as i32
}

/// Fitted weights, in 1/32 of a disc.
#[derive(Clone, Debug)]
pub struct Weights {
    pub values: Vec<i16>,
}

/// The weights shipped with arbiter (`patterns.bin`, made by `arbiter train-order othello`
/// as docs/games.md says), read once.
pub fn shipped() -> &'static Weights {
    static SHIPPED: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| {
        Weights::from_bytes(include_bytes!("patterns.bin"))
            .expect("patterns.bin is a weights file of this build's patterns (a test checks it)")
    });
    &SHIPPED
}

/// The scale of the weights: units per disc.
pub const SCALE: f64 = 32.0;

/// Why bytes are not weights this build can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// No [`MAGIC`] at the start.
    #[error("not a pattern weights file (no ARBPAT01 header)")]
    NotWeights,
    /// A count of weights other than this build's patterns have, or bytes that do not
    /// hold that count.
    #[error("{count} weights in {bytes} bytes where this build reads {WEIGHTS}")]
    WrongCount { count: usize, bytes: usize },
}

/// What a weights file starts with.
const MAGIC: &[u8; 8] = b"ARBPAT01";

impl Weights {
    /// The file's bytes: [`MAGIC`], the count of weights (u32), then each as an i16, all
    /// little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(self.values.len() as u32).to_le_bytes());
        for w in &self.values {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes
    }

    /// Weights from a file's bytes.
    ///
    /// # Errors
    /// Bytes that are not a weights file of this build's patterns.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if bytes.len() < 12 || &bytes[..8] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
        if count != WEIGHTS || bytes.len() != 12 + 2 * count {
            return Err(WeightsError::WrongCount {
                count,
                bytes: bytes.len(),
            });
        }
        let values = bytes[12..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        Ok(Weights { values })
    }

    /// The evaluation of the position with `own` discs to move against `other`, in 1/32 of
    /// a disc.
    #[inline]
    pub fn evaluate(&self, own: u64, other: u64) -> i32 {
        self.evaluate_moving(own, other, super::moves_of(own, other))
    }

    /// [`Weights::evaluate`] where the mover's moves (`moves`) are known already.
    #[inline]
    pub fn evaluate_moving(&self, own: u64, other: u64, moves: u64) -> i32 {
        let values = &self.values;
        let mut sum = i32::from(values[WEIGHTS - 1]);
        for index in indices(own, other) {
            sum += i32::from(values[index as usize]);
        }
        let mobility = moves.count_ones() as i32 - super::moves_of(other, own).count_ones() as i32;
        sum + i32::from(values[PATTERN_WEIGHTS]) * mobility
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The configuration of `instance` square by square, as its definition says.
    fn naive(instance: &Instance, own: u64, other: u64) -> u32 {
        let mut index = 0;
        for &square in instance.squares[..instance.len as usize].iter().rev() {
            let digit = ((own >> square) & 1) + 2 * ((other >> square) & 1);
            index = index * 3 + digit as u32;
        }
        instance.offset + index
    }

    #[test]
    fn images_are_distinct_and_cover_each_pattern_eightfold_at_most() {
        let sets: Vec<u64> = TABLE
            .iter()
            .map(|i| {
                i.squares[..i.len as usize]
                    .iter()
                    .fold(0u64, |s, &q| s | 1 << q)
            })
            .collect();
        for (a, x) in sets.iter().enumerate() {
            for y in &sets[a + 1..] {
                assert_ne!(x, y, "two images read the same squares");
            }
        }
        // The edge with its X squares: the four edges; the 2x5 block: eight images.
        let edges = TABLE.iter().filter(|i| i.offset == OFFSETS.0[0]).count();
        let blocks = TABLE.iter().filter(|i| i.offset == OFFSETS.0[2]).count();
        assert_eq!((edges, blocks), (4, 8));
        // The h8 corner's 3x3 block is read with h8 as its first square.
        assert!(
            TABLE
                .iter()
                .any(|i| i.offset == OFFSETS.0[1] && i.squares[0] == 63 && i.squares[8] == 45)
        );
    }

    #[test]
    fn row_tables_give_each_image_its_configuration() {
        let mut z = 7u64;
        for _ in 0..2000 {
            z = crate::core::seeds::mix64(z);
            let filled = crate::core::seeds::mix64(z ^ 1);
            let (own, other) = (z & filled, !z & filled);
            let fast = indices(own, other);
            for (instance, &index) in TABLE.iter().zip(&fast) {
                assert_eq!(
                    index,
                    naive(instance, own, other),
                    "own {own:x} other {other:x}"
                );
            }
        }
    }

    #[test]
    fn weights_survive_their_file_and_a_wrong_file_is_refused() {
        let weights = Weights {
            values: (0..WEIGHTS).map(|i| (i % 2000) as i16 - 1000).collect(),
        };
        let back = Weights::from_bytes(&weights.to_bytes()).expect("its own bytes");
        assert_eq!(back.values, weights.values);
        assert_eq!(
            Weights::from_bytes(b"ARBPAT01\x01\0\0\0\0\0").unwrap_err(),
            WeightsError::WrongCount {
                count: 1,
                bytes: 14
            }
        );
        assert!(
            Weights::from_bytes(b"not weights")
                .unwrap_err()
                .to_string()
                .contains("ARBPAT01")
        );
    }
}
