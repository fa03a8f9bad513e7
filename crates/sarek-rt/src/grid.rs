//! How many invocations a launch runs.

/// The extent of a launch: a number of threads (rounded up to whole workgroups of the
/// kernel's size) or a number of workgroups.
///
/// ```
/// use sarek_rt::Grid;
/// assert_eq!(Grid::cover(1000).workgroups([256, 1, 1]), [4, 1, 1]);
/// assert_eq!(Grid::cover_2d(100, 30).workgroups([16, 16, 1]), [7, 2, 1]);
/// assert_eq!(Grid::groups([3, 2, 1]).workgroups([64, 1, 1]), [3, 2, 1]);
/// // Counts of workgroups take `usize`, as counts of threads do.
/// assert_eq!(Grid::groups(3).workgroups([64, 1, 1]), [3, 1, 1]);
/// assert_eq!(Grid::groups_2d(3, 2), Grid::groups([3, 2, 1]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Threads([u64; 3]),
    Groups([u64; 3]),
}

/// A number of workgroups, as [`Grid::groups`] takes it: a `usize` (along x, as
/// [`Grid::cover`] takes a number of threads) or `[u32; 3]` (along x, y and z, as
/// [`Grid::workgroups`] returns them). [`Grid::groups_2d`] and [`Grid::groups_3d`] take
/// `usize`s, as [`Grid::cover_2d`] and [`Grid::cover_3d`] do.
///
/// ```
/// use sarek_rt::Groups;
/// assert_eq!(Groups::from(5usize), Groups::from([5, 1, 1]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Groups([u64; 3]);

impl From<usize> for Groups {
    fn from(x: usize) -> Groups {
        Groups([x as u64, 1, 1])
    }
}

impl From<[u32; 3]> for Groups {
    fn from(groups: [u32; 3]) -> Groups {
        Groups(groups.map(u64::from))
    }
}

impl Grid {
    /// At least `n` threads along x: `ceil(n / workgroup_x)` workgroups.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// assert_eq!(Grid::cover(1000).workgroups([64, 1, 1]), [16, 1, 1]);
    /// // An empty grid: launching it does nothing.
    /// assert_eq!(Grid::cover(0).workgroups([64, 1, 1]), [0, 1, 1]);
    /// ```
    pub fn cover(n: usize) -> Grid {
        Grid {
            kind: Kind::Threads([n as u64, 1, 1]),
        }
    }

    /// At least `width × height` threads: workgroups cover both dimensions.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// assert_eq!(Grid::cover_2d(1920, 1080).workgroups([16, 16, 1]), [120, 68, 1]);
    /// ```
    pub fn cover_2d(width: usize, height: usize) -> Grid {
        Grid {
            kind: Kind::Threads([width as u64, height as u64, 1]),
        }
    }

    /// At least `width × height × depth` threads.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// assert_eq!(Grid::cover_3d(10, 10, 10).workgroups([4, 4, 4]), [3, 3, 3]);
    /// ```
    pub fn cover_3d(width: usize, height: usize, depth: usize) -> Grid {
        Grid {
            kind: Kind::Threads([width as u64, height as u64, depth as u64]),
        }
    }

    /// Exactly these many workgroups: `n` along x (a `usize`, as [`Grid::cover`] takes), or
    /// `[x, y, z]` (see [`Groups`]). A count over the device's limit is refused at launch
    /// ([`Error::GridTooLarge`](crate::Error::GridTooLarge)), never truncated.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// // The workgroup size does not matter.
    /// assert_eq!(Grid::groups([8, 2, 1]).workgroups([256, 1, 1]), [8, 2, 1]);
    /// let n: usize = 8;
    /// assert_eq!(Grid::groups(n).workgroups([256, 1, 1]), [8, 1, 1]);
    /// ```
    pub fn groups(groups: impl Into<Groups>) -> Grid {
        Grid {
            kind: Kind::Groups(groups.into().0),
        }
    }

    /// Exactly `x × y` workgroups, as [`Grid::cover_2d`] covers `width × height` threads.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// assert_eq!(Grid::groups_2d(8, 2).workgroups([16, 16, 1]), [8, 2, 1]);
    /// ```
    pub fn groups_2d(x: usize, y: usize) -> Grid {
        Grid {
            kind: Kind::Groups([x as u64, y as u64, 1]),
        }
    }

    /// Exactly `x × y × z` workgroups, as [`Grid::cover_3d`] covers threads.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// assert_eq!(Grid::groups_3d(8, 2, 3).workgroups([4, 4, 4]), [8, 2, 3]);
    /// ```
    pub fn groups_3d(x: usize, y: usize, z: usize) -> Grid {
        Grid {
            kind: Kind::Groups([x as u64, y as u64, z as u64]),
        }
    }

    /// The number of workgroups for a kernel of the given workgroup size.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// let threads = 5_000_000_000_u64;
    /// let grid = Grid::cover(threads as usize);
    /// assert_eq!(grid.workgroups_u64([1, 1, 1]), [threads, 1, 1]);
    /// ```
    pub fn workgroups_u64(&self, workgroup_size: [u32; 3]) -> [u64; 3] {
        match self.kind {
            Kind::Groups(g) => g,
            Kind::Threads(t) => {
                [0, 1, 2].map(|i| t[i].div_ceil(u64::from(workgroup_size[i].max(1))))
            }
        }
    }

    /// Like [`Grid::workgroups_u64`], saturated to `u32`.
    ///
    /// ```
    /// use sarek_rt::Grid;
    /// assert_eq!(Grid::cover(100).workgroups([32, 1, 1]), [4, 1, 1]);
    /// assert_eq!(Grid::cover(5_000_000_000).workgroups([1, 1, 1]), [u32::MAX, 1, 1]);
    /// ```
    pub fn workgroups(&self, workgroup_size: [u32; 3]) -> [u32; 3] {
        self.workgroups_u64(workgroup_size)
            .map(|g| g.min(u32::MAX as u64) as u32)
    }
}
