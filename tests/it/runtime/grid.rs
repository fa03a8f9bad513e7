//! `Grid`: counts of workgroups take what counts of threads take (`usize`), and the old
//! `[u32; 3]` form still compiles; a count the device cannot run is an error, not truncated.

use crate::common::backends;

use sarek::prelude::*;
use sarek::Error;

#[sarek::kernel(workgroup_size = [64])]
fn group_ids(out: &mut [u32]) {
    let i = global_thread_id();
    if i < out.len() {
        out[i] = block_idx_x() as u32;
    }
}

#[backends]
fn groups_take_usize_like_cover_and_arrays_as_before(dev: Device) {
    let n: usize = 3;
    let mut out = dev.zeros::<u32>(64 * 3).unwrap();
    group_ids.launch(&dev, Grid::groups(n), &mut out).unwrap();
    let got = out.read().unwrap();
    assert_eq!(got[0], 0);
    assert_eq!(got[64], 1);
    assert_eq!(got[64 * 3 - 1], 2);
    // Integer literals, `[u32; 3]` arrays and the 2-D / 3-D forms all mean the same grid.
    assert_eq!(Grid::groups(3), Grid::groups([3, 1, 1]));
    assert_eq!(Grid::groups_2d(n, 2), Grid::groups([3, 2, 1]));
    assert_eq!(Grid::groups_3d(n, 2, 4), Grid::groups([3, 2, 4]));
    let groups: [u32; 3] = [2, 1, 1];
    let mut small = dev.zeros::<u32>(128).unwrap();
    group_ids
        .launch(&dev, Grid::groups(groups), &mut small)
        .unwrap();
    assert_eq!(small.read().unwrap()[127], 1);
}

#[backends]
fn a_usize_count_over_the_limit_is_refused_not_truncated(dev: Device) {
    let mut out = dev.zeros::<u32>(4).unwrap();
    // 2^32 + 1 workgroups along y would wrap to 1 if truncated to `u32`.
    let huge = (1usize << 32) + 1;
    match group_ids.launch(&dev, Grid::groups_2d(1, huge), &mut out) {
        Err(Error::GridTooLarge { groups, .. }) => assert_eq!(groups, [1, huge as u64, 1]),
        other => panic!("expected GridTooLarge, got {other:?}"),
    }
    assert_eq!(out.read().unwrap(), [0; 4]);
}
