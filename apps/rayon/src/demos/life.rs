//! life, as apps/demos/life.hpp: B3/S23 on a board with dead edges; a generation is a new
//! board, each cell's successor computed by `into_par_iter().map().collect()`.
use super::XorShift;
use rayon::prelude::*;

pub struct Board {
    rows: usize,
    cols: usize,
    pub cells: Vec<u8>, // 1 alive, 0 dead; row after row
}

impl Board {
    pub fn random(rows: usize, cols: usize) -> Board {
        let mut rng = XorShift::new();
        let cells = (0..rows * cols).map(|_| (rng.next_u32() >> 31) as u8).collect();
        Board { rows, cols, cells }
    }

    fn successor(&self, cell: usize) -> u8 {
        let (r, c) = (cell / self.cols, cell % self.cols);
        let mut n = 0;
        for i in r.saturating_sub(1)..(r + 2).min(self.rows) {
            for j in c.saturating_sub(1)..(c + 2).min(self.cols) {
                n += self.cells[i * self.cols + j];
            }
        }
        n -= self.cells[cell];
        (n == 3 || (n == 2 && self.cells[cell] == 1)) as u8
    }

    // ANCHOR: next
    pub fn next_parallel(&self) -> Board {
        let cells = (0..self.cells.len()).into_par_iter().map(|cell| self.successor(cell)).collect();
        Board { rows: self.rows, cols: self.cols, cells }
    }
    // ANCHOR_END: next
}
