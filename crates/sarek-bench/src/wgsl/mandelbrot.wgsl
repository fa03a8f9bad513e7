struct Params { width: u32, height: u32, max_iter: u32 }
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;

@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < p.width && gid.y < p.height {
        let cx = f32(gid.x) / f32(p.width) * 3.5 - 2.5;
        let cy = f32(gid.y) / f32(p.height) * 2.0 - 1.0;
        var x = 0.0;
        var y = 0.0;
        var iter = 0u;
        while x * x + y * y <= 4.0 && iter < p.max_iter {
            let xt = x * x - y * y + cx;
            y = 2.0 * x * y + cy;
            x = xt;
            iter++;
        }
        out[gid.y * p.width + gid.x] = iter;
    }
}
