// New shapes: constant expressions, labelled exits, match guards, tuples and
// methods, each as the WGSL a reviewer should expect.

const BLOCK: usize = 8;
const PADDED: usize = BLOCK + 1;

struct P {
    x: f32,
    n: u32,
}

impl P {
    fn new(x: f32) -> Self {
        Self { x, n: 0 }
    }

    fn bump(&mut self, by: f32) {
        self.x += by;
        self.n += 1;
    }
}

fn split(v: u32) -> (u32, u32) {
    (v / 10, v % 10)
}

#[sarek::kernel(workgroup_size = [BLOCK, BLOCK])]
fn padded(out: &mut [f32]) {
    let tile = shared::<[[f32; PADDED]; BLOCK + 1]>();
    tile[thread_idx_y()][thread_idx_x()] = 1.0;
    block_barrier();
    out[global_thread_id()] = tile[thread_idx_x()][thread_idx_y()];
}

#[sarek::kernel]
fn labelled(xs: &[u32], out: &mut [u32]) {
    let i = global_thread_id();
    let mut hit = 0u32;
    'outer: for a in 0..4u32 {
        for b in 0..4u32 {
            if a * b == xs[i] {
                hit = a;
                break 'outer;
            }
            if b > a {
                continue 'outer;
            }
        }
    }
    out[i] = hit;
}

#[sarek::kernel]
fn guarded(xs: &[i32], out: &mut [i32]) {
    let i = global_thread_id();
    out[i] = match xs[i] {
        v if v < 0 => -v,
        0 => 100,
        v => v * 2,
    };
}

#[sarek::kernel]
fn tuples_and_methods(xs: &[u32], ps: &mut [P]) {
    let i = global_thread_id();
    let (tens, ones) = split(xs[i]);
    let mut p = P::new(tens as f32);
    p.bump(ones as f32);
    ps[i] = p;
    ps[i].bump(1.0);
}
