@group(0) @binding(0) var<storage, read> pos: array<f32>;
@group(0) @binding(1) var<storage, read_write> acc: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let n = arrayLength(&pos) / 4u;
    if i < n {
        let xi = pos[i * 4u];
        let yi = pos[i * 4u + 1u];
        let zi = pos[i * 4u + 2u];
        var ax = 0.0;
        var ay = 0.0;
        var az = 0.0;
        for (var j = 0u; j < n; j++) {
            let dx = pos[j * 4u] - xi;
            let dy = pos[j * 4u + 1u] - yi;
            let dz = pos[j * 4u + 2u] - zi;
            let d2 = dx * dx + dy * dy + dz * dz + 1e-9;
            let inv = 1.0 / sqrt(d2);
            let s = pos[j * 4u + 3u] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        acc[i * 4u] = ax;
        acc[i * 4u + 1u] = ay;
        acc[i * 4u + 2u] = az;
        acc[i * 4u + 3u] = 0.0;
    }
}
