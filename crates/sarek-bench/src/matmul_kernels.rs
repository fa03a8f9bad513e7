//! Variants of the register-blocked matrix product (`kernels::matmul_rb`: 16×16 threads,
//! 128×128 tiles of C, 8×8 per thread) that hide the latency of the global loads, measured by
//! `--experiments --only x_matmul2`.

use sarek::Vec4;

/// [`crate::kernels::matmul_rb`] with the next slice's global loads issued before the
/// products of the current one (register prefetch), and the slices double-buffered in
/// workgroup memory: one barrier per slice instead of two.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_db(n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    let at = shared::<[[[f32; 128]; 8]; 2]>();
    let bt = shared::<[[[Vec4; 32]; 8]; 2]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    let ar = tid / 2;
    let ak = (tid % 2) * 4;
    let br = tid / 32;
    let bc = tid % 32;
    let gr = row0 + ar;
    let gc = col0 + bc * 4;
    let mut va = if gr < n && ak < n {
        a[gr * n4 + ak / 4]
    } else {
        Vec4::ZERO
    };
    let mut vb = if br < n && gc < n {
        b[br * n4 + gc / 4]
    } else {
        Vec4::ZERO
    };
    at[0][ak][ar] = va.x;
    at[0][ak + 1][ar] = va.y;
    at[0][ak + 2][ar] = va.z;
    at[0][ak + 3][ar] = va.w;
    bt[0][br][bc] = vb;
    block_barrier();
    let mut cur = 0;
    let mut k0 = 0;
    while k0 < n {
        let next = k0 + 8;
        if next < n {
            va = if gr < n && next + ak < n {
                a[gr * n4 + (next + ak) / 4]
            } else {
                Vec4::ZERO
            };
            vb = if next + br < n && gc < n {
                b[(next + br) * n4 + gc / 4]
            } else {
                Vec4::ZERO
            };
        }
        for k in 0..8 {
            let b0 = bt[cur][k][tx];
            let b1 = bt[cur][k][16 + tx];
            for i in 0..4 {
                let a0 = at[cur][k][ty * 4 + i];
                let a1 = at[cur][k][64 + ty * 4 + i];
                acc[i * 2] += b0 * a0;
                acc[i * 2 + 1] += b1 * a0;
                acc[8 + i * 2] += b0 * a1;
                acc[8 + i * 2 + 1] += b1 * a1;
            }
        }
        let other = 1 - cur;
        at[other][ak][ar] = va.x;
        at[other][ak + 1][ar] = va.y;
        at[other][ak + 2][ar] = va.z;
        at[other][ak + 3][ar] = va.w;
        bt[other][br][bc] = vb;
        block_barrier();
        cur = other;
        k0 = next;
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < n && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}

/// [`crate::kernels::matmul_rb`] with the next slice's global loads issued before the
/// products of the current one (register prefetch); one buffer, two barriers per slice.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_pf(n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    let at = shared::<[[f32; 128]; 8]>();
    let bt = shared::<[[Vec4; 32]; 8]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    let ar = tid / 2;
    let ak = (tid % 2) * 4;
    let br = tid / 32;
    let bc = tid % 32;
    let gr = row0 + ar;
    let gc = col0 + bc * 4;
    let mut va = if gr < n && ak < n {
        a[gr * n4 + ak / 4]
    } else {
        Vec4::ZERO
    };
    let mut vb = if br < n && gc < n {
        b[br * n4 + gc / 4]
    } else {
        Vec4::ZERO
    };
    let mut k0 = 0;
    while k0 < n {
        at[ak][ar] = va.x;
        at[ak + 1][ar] = va.y;
        at[ak + 2][ar] = va.z;
        at[ak + 3][ar] = va.w;
        bt[br][bc] = vb;
        block_barrier();
        let next = k0 + 8;
        if next < n {
            va = if gr < n && next + ak < n {
                a[gr * n4 + (next + ak) / 4]
            } else {
                Vec4::ZERO
            };
            vb = if next + br < n && gc < n {
                b[(next + br) * n4 + gc / 4]
            } else {
                Vec4::ZERO
            };
        }
        for k in 0..8 {
            let b0 = bt[k][tx];
            let b1 = bt[k][16 + tx];
            for i in 0..4 {
                let a0 = at[k][ty * 4 + i];
                let a1 = at[k][64 + ty * 4 + i];
                acc[i * 2] += b0 * a0;
                acc[i * 2 + 1] += b1 * a0;
                acc[8 + i * 2] += b0 * a1;
                acc[8 + i * 2 + 1] += b1 * a1;
            }
        }
        block_barrier();
        k0 = next;
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < n && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}

/// [`matmul_pf`] with slices of 16 along k: half as many barriers, two `Vec4`s of each
/// matrix staged per thread.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_pf16(n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    let at = shared::<[[f32; 128]; 16]>();
    let bt = shared::<[[Vec4; 32]; 16]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    // A: row `ar`, columns `ak..ak+3` and `ak+8..ak+11`; B: rows `br` and `br+8`.
    let ar = tid / 2;
    let ak = (tid % 2) * 4;
    let br = tid / 32;
    let bc = tid % 32;
    let gr = row0 + ar;
    let gc = col0 + bc * 4;
    let mut va = if gr < n && ak < n {
        a[gr * n4 + ak / 4]
    } else {
        Vec4::ZERO
    };
    let mut va2 = if gr < n && ak + 8 < n {
        a[gr * n4 + (ak + 8) / 4]
    } else {
        Vec4::ZERO
    };
    let mut vb = if br < n && gc < n {
        b[br * n4 + gc / 4]
    } else {
        Vec4::ZERO
    };
    let mut vb2 = if br + 8 < n && gc < n {
        b[(br + 8) * n4 + gc / 4]
    } else {
        Vec4::ZERO
    };
    let mut k0 = 0;
    while k0 < n {
        at[ak][ar] = va.x;
        at[ak + 1][ar] = va.y;
        at[ak + 2][ar] = va.z;
        at[ak + 3][ar] = va.w;
        at[ak + 8][ar] = va2.x;
        at[ak + 9][ar] = va2.y;
        at[ak + 10][ar] = va2.z;
        at[ak + 11][ar] = va2.w;
        bt[br][bc] = vb;
        bt[br + 8][bc] = vb2;
        block_barrier();
        let next = k0 + 16;
        if next < n {
            va = if gr < n && next + ak < n {
                a[gr * n4 + (next + ak) / 4]
            } else {
                Vec4::ZERO
            };
            va2 = if gr < n && next + ak + 8 < n {
                a[gr * n4 + (next + ak + 8) / 4]
            } else {
                Vec4::ZERO
            };
            vb = if next + br < n && gc < n {
                b[(next + br) * n4 + gc / 4]
            } else {
                Vec4::ZERO
            };
            vb2 = if next + br + 8 < n && gc < n {
                b[(next + br + 8) * n4 + gc / 4]
            } else {
                Vec4::ZERO
            };
        }
        for k in 0..16 {
            let b0 = bt[k][tx];
            let b1 = bt[k][16 + tx];
            for i in 0..4 {
                let a0 = at[k][ty * 4 + i];
                let a1 = at[k][64 + ty * 4 + i];
                acc[i * 2] += b0 * a0;
                acc[i * 2 + 1] += b1 * a0;
                acc[8 + i * 2] += b0 * a1;
                acc[8 + i * 2 + 1] += b1 * a1;
            }
        }
        block_barrier();
        k0 = next;
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < n && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}

/// [`crate::kernels::matmul_rb`] with A staged untransposed, a `Vec4` along k per row, so that
/// the products read `Vec4`s of A too: four 16-byte reads of workgroup memory per step of k
/// instead of two 16-byte and eight 4-byte ones. `n` must be a multiple of 4.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_v(n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    let at = shared::<[[Vec4; 2]; 128]>();
    let bt = shared::<[[Vec4; 32]; 8]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    // A: row `ar`, the `Vec4` `ak` of the slice (k `4ak..4ak+3`), stored as it is; B: row
    // `br`, columns `4bc..4bc+3`.
    let ar = tid / 2;
    let ak = tid % 2;
    let br = tid / 32;
    let bc = tid % 32;
    let gr = row0 + ar;
    let gc = col0 + bc * 4;
    let mut k0 = 0;
    while k0 < n {
        let va = if gr < n && k0 + ak * 4 < n {
            a[gr * n4 + k0 / 4 + ak]
        } else {
            Vec4::ZERO
        };
        let vb = if k0 + br < n && gc < n {
            b[(k0 + br) * n4 + gc / 4]
        } else {
            Vec4::ZERO
        };
        at[ar][ak] = va;
        bt[br][bc] = vb;
        block_barrier();
        for kb in 0..2 {
            let mut lo = [Vec4::ZERO; 4];
            let mut hi = [Vec4::ZERO; 4];
            for i in 0..4 {
                lo[i] = at[ty * 4 + i][kb];
                hi[i] = at[64 + ty * 4 + i][kb];
            }
            let b0 = bt[kb * 4 + 0][tx];
            let b1 = bt[kb * 4 + 0][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].x;
                acc[i * 2 + 1] += b1 * lo[i].x;
                acc[8 + i * 2] += b0 * hi[i].x;
                acc[8 + i * 2 + 1] += b1 * hi[i].x;
            }
            let b0 = bt[kb * 4 + 1][tx];
            let b1 = bt[kb * 4 + 1][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].y;
                acc[i * 2 + 1] += b1 * lo[i].y;
                acc[8 + i * 2] += b0 * hi[i].y;
                acc[8 + i * 2 + 1] += b1 * hi[i].y;
            }
            let b0 = bt[kb * 4 + 2][tx];
            let b1 = bt[kb * 4 + 2][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].z;
                acc[i * 2 + 1] += b1 * lo[i].z;
                acc[8 + i * 2] += b0 * hi[i].z;
                acc[8 + i * 2 + 1] += b1 * hi[i].z;
            }
            let b0 = bt[kb * 4 + 3][tx];
            let b1 = bt[kb * 4 + 3][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].w;
                acc[i * 2 + 1] += b1 * lo[i].w;
                acc[8 + i * 2] += b0 * hi[i].w;
                acc[8 + i * 2 + 1] += b1 * hi[i].w;
            }
        }
        block_barrier();
        k0 += 8;
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < n && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}

/// [`matmul_v`] with slices of 16 along k. `n` must be a multiple of 4.
#[sarek::kernel(workgroup_size = [16, 16])]
pub fn matmul_v16(n: usize, a: &[Vec4], b: &[Vec4], c: &mut [Vec4]) {
    let at = shared::<[[Vec4; 4]; 128]>();
    let bt = shared::<[[Vec4; 32]; 16]>();
    let tx = thread_idx_x();
    let ty = thread_idx_y();
    let tid = ty * 16 + tx;
    let row0 = block_idx_y() * 128;
    let col0 = block_idx_x() * 128;
    let n4 = n / 4;
    let mut acc = [Vec4::ZERO; 16];
    // A: row `ar`, the `Vec4` `ak` of the slice (k `4ak..4ak+3`), stored as it is; B: row
    // `br`, columns `4bc..4bc+3`.
    let ar = tid / 2;
    let ak = tid % 2;
    let br = tid / 32;
    let bc = tid % 32;
    let gr = row0 + ar;
    let gc = col0 + bc * 4;
    let mut k0 = 0;
    while k0 < n {
        let va = if gr < n && k0 + ak * 4 < n {
            a[gr * n4 + k0 / 4 + ak]
        } else {
            Vec4::ZERO
        };
        let vb = if k0 + br < n && gc < n {
            b[(k0 + br) * n4 + gc / 4]
        } else {
            Vec4::ZERO
        };
        let va2 = if gr < n && k0 + (ak + 2) * 4 < n {
            a[gr * n4 + k0 / 4 + ak + 2]
        } else {
            Vec4::ZERO
        };
        let vb2 = if k0 + br + 8 < n && gc < n {
            b[(k0 + br + 8) * n4 + gc / 4]
        } else {
            Vec4::ZERO
        };
        at[ar][ak] = va;
        at[ar][ak + 2] = va2;
        bt[br][bc] = vb;
        bt[br + 8][bc] = vb2;
        block_barrier();
        for kb in 0..4 {
            let mut lo = [Vec4::ZERO; 4];
            let mut hi = [Vec4::ZERO; 4];
            for i in 0..4 {
                lo[i] = at[ty * 4 + i][kb];
                hi[i] = at[64 + ty * 4 + i][kb];
            }
            let b0 = bt[kb * 4 + 0][tx];
            let b1 = bt[kb * 4 + 0][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].x;
                acc[i * 2 + 1] += b1 * lo[i].x;
                acc[8 + i * 2] += b0 * hi[i].x;
                acc[8 + i * 2 + 1] += b1 * hi[i].x;
            }
            let b0 = bt[kb * 4 + 1][tx];
            let b1 = bt[kb * 4 + 1][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].y;
                acc[i * 2 + 1] += b1 * lo[i].y;
                acc[8 + i * 2] += b0 * hi[i].y;
                acc[8 + i * 2 + 1] += b1 * hi[i].y;
            }
            let b0 = bt[kb * 4 + 2][tx];
            let b1 = bt[kb * 4 + 2][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].z;
                acc[i * 2 + 1] += b1 * lo[i].z;
                acc[8 + i * 2] += b0 * hi[i].z;
                acc[8 + i * 2 + 1] += b1 * hi[i].z;
            }
            let b0 = bt[kb * 4 + 3][tx];
            let b1 = bt[kb * 4 + 3][16 + tx];
            for i in 0..4 {
                acc[i * 2] += b0 * lo[i].w;
                acc[i * 2 + 1] += b1 * lo[i].w;
                acc[8 + i * 2] += b0 * hi[i].w;
                acc[8 + i * 2 + 1] += b1 * hi[i].w;
            }
        }
        block_barrier();
        k0 += 16;
    }
    for i in 0..4 {
        for half in 0..2 {
            let r = row0 + half * 64 + ty * 4 + i;
            let c0 = col0 + tx * 4;
            if r < n && c0 < n {
                c[r * n4 + c0 / 4] = acc[half * 8 + i * 2];
            }
            if r < n && c0 + 64 < n {
                c[r * n4 + (c0 + 64) / 4] = acc[half * 8 + i * 2 + 1];
            }
        }
    }
}

/// `--experiments --only x_matmul2`: each variant at 4096², checked against `matmul_rb`
/// (the same products added in the same order: equal bit for bit), then timed.
pub fn matmul2(b: &crate::benches::Bench) -> crate::benches::Result<()> {
    use sarek::Grid;
    let dev = &b.ctx.dev;
    let m = if b.quick { 256usize } else { 4096 };
    let av: Vec<f32> = (0..m * m).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let bv: Vec<f32> = (0..m * m).map(|i| ((i * 5) % 11) as f32 - 5.0).collect();
    let a4 = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&av))?;
    let b4 = dev.upload(bytemuck::cast_slice::<f32, Vec4>(&bv))?;
    let mut c4 = dev.zeros::<Vec4>(m * m / 4)?;
    let grid = Grid::groups([(m / 128) as u32, (m / 128) as u32, 1]);
    crate::kernels::matmul_rb
        .launch(dev, grid, m, &a4, &b4, &mut c4)?
        .wait()?;
    let want = c4.read()?;
    for variant in 0..6 {
        let go = |c4: &mut sarek::Buffer<Vec4>| {
            vec![match variant {
                0 => crate::kernels::matmul_rb.launch(dev, grid, m, &a4, &b4, c4),
                1 => matmul_pf.launch(dev, grid, m, &a4, &b4, c4),
                2 => matmul_db.launch(dev, grid, m, &a4, &b4, c4),
                3 => matmul_pf16.launch(dev, grid, m, &a4, &b4, c4),
                4 => matmul_v.launch(dev, grid, m, &a4, &b4, c4),
                _ => matmul_v16.launch(dev, grid, m, &a4, &b4, c4),
            }
            .expect("launch")]
        };
        c4 = dev.zeros::<Vec4>(m * m / 4)?;
        go(&mut c4)[0].wait()?;
        let ok = c4.read()? == want;
        let t = b.timer.compare(|| go(&mut c4), &[]).0;
        let name = [
            "matmul_rb",
            "prefetch",
            "prefetch + double buffer",
            "prefetch, slices of 16",
            "A as Vec4 along k",
            "A as Vec4 along k, slices of 16",
        ][variant];
        println!(
            "experiment: matmul2 {name:<40} {:>9.1} µs  {:>8.1} GFLOP/s  checked {ok}",
            t.as_secs_f64() * 1e6,
            2.0 * (m as f64).powi(3) / t.as_secs_f64() / 1e9
        );
    }
    Ok(())
}
