#!/usr/bin/env python3
"""The 128x256 f16 product (8 subgroups of 64x64, steps of 32 along k, one buffer of F16Vec4
words in workgroup memory) in Sarek and in WGSL from one plan, with the next steps' words
prefetched `dist` steps ahead (two register sets when 2, the loop unrolled by two), issued
before or after the first barrier (`early`).

Usage: matmul_f16_prefetch.py OUT.rs WGSL_DIR. It wrote the kernels of
src/benches/coop_prefetch.rs (their doc comments, module header and test added by hand) and
their twins (matmul_f16_vec_p2.wgsl then moved to src/wgsl/ as the row's twin, its header
comment edited); see BENCHMARKS.md, "f16 matrix product at 212 TFLOP/s"."""
import sys

AOFF = [0, 320, 640, 960]                 # rows 0, 32, 64, 96 of the tile of a, in words
BOFF = [264 * j for j in range(8)]        # rows 0, 4, .., 28 of the tile of b

def sarek(name, dist, early):
    o = []; w = o.append
    w('#[sarek::kernel(workgroup_size = [256], limits = "device")]')
    w(f'pub fn {name}(a: &[F16Vec4], b: &[F16Vec4], c: &mut [f32], m: u32) {{')
    w('    let m = m as usize;')
    w('    let row0 = block_idx_y() * 128;')
    w('    let col0 = block_idx_x() * 256;')
    w('    let t = thread_idx_x();')
    w('    let sg = t / 32;')
    w('    let ar = (sg / 4) * 64; // this subgroup\'s rows in the block')
    w('    let bc = (sg % 4) * 16; // and columns, in words')
    w('    let sa = shared::<[F16Vec4; 1280]>(); // 128 rows of 8 words (32 halves), padded to 10')
    w('    let sb = shared::<[F16Vec4; 2112]>(); // 32 rows of 64 words (256 halves), padded to 66')
    for i in range(4):
        for j in range(4):
            w(f'    let mut c{i}{j} = CoopMatrix::<f32, 16, C>::zeros();')
    w('    // Thread t copies word t % 8 of rows t / 8 + 32·j of the tile of `a`, and word t % 64')
    w('    // of rows t / 64 + 4·j of the tile of `b`; `q` words a matrix row; `pa`, `pb` its')
    w('    // words in the workgroup arrays.')
    w('    let q = m / 4;')
    w('    let la = (row0 + t / 8) * q + t % 8;')
    w('    let pa = (t / 8) * 10 + t % 8;')
    w('    let lb = (t / 64) * q + col0 / 4 + t % 64;')
    w('    let pb = (t / 64) * 66 + t % 64;')
    def loads(s, kexpr, decl):
        kw = 'let mut ' if decl else ''
        for j in range(4):
            w(f'    {kw}ra{s}{j} = a[la + ({kexpr}) / 4 + {32 * j} * q];')
        for j in range(8):
            w(f'    {kw}rb{s}{j} = b[lb + ({kexpr} + {4 * j}) * q];')
    sets = range(dist)
    for s in sets:
        loads(s, f'{32 * s}.min(m - 32)' if s else '0', True)
    def step(s, kbase):
        # kbase: expression of this step's k
        for j in range(4):
            w(f'        sa[pa + {AOFF[j]}] = ra{s}{j};')
        for j in range(8):
            w(f'        sb[pb + {BOFF[j]}] = rb{s}{j};')
        nxt = f'({kbase} + {32 * dist}).min(m - 32)'
        def pre():
            w(f'        let kn = {nxt};')
            for j in range(4):
                w(f'        ra{s}{j} = a[la + kn / 4 + {32 * j} * q];')
            for j in range(8):
                w(f'        rb{s}{j} = b[lb + (kn + {4 * j}) * q];')
        if early:
            pre()
        w('        block_barrier();')
        if not early:
            pre()
        for h in range(2):
            for i in range(4):
                w(f'        let a{i} = CoopMatrix::<f16, 16, A>::load_rows(sa, (ar + {16 * i}) * 10 + {4 * h}, 10);')
            for j in range(4):
                w(f'        let b{j} = CoopMatrix::<f16, 16, B>::load_rows(sb, {1056 * h} + bc + {4 * j}, 66);')
            for i in range(4):
                for j in range(4):
                    w(f'        c{i}{j} = a{i}.multiply_add(b{j}, c{i}{j});')
        w('        block_barrier();')
    w('    let mut k = 0;')
    w('    while k < m {')
    if dist == 1:
        step(0, 'k')
        w('        k += 32;')
    else:
        # the body holds two steps (m a multiple of 64)
        w('        {')
        step(0, 'k')
        w('        }')
        w('        {')
        step(1, '(k + 32)')
        w('        }')
        w('        k += 64;')
    w('    }')
    for i in range(4):
        for j in range(4):
            w(f'    c{i}{j}.store_rows(c, (row0 + ar + {16 * i}) * m + col0 + bc * 4 + {16 * j}, m);')
    w('}')
    return '\n'.join(o) + '\n'

def wgsl(name, dist, early):
    o = []; w = o.append
    w(f'// An experiment (x_matmul_f16), the twin of sarek-bench\'s `{name}` (written from one plan')
    w('// with it): a 128x256 block of c per 256 invocations (8 subgroups of 32, each a 64x64 part')
    w('// as 4x4 accumulators of 16x16), steps of 32 along k, one buffer of vec4<f16> words in')
    w('// workgroup memory (rows padded by two words), read by the matrix loads (stride in words);')
    w(f'// the words of step k + {32 * dist} loaded at step k{" (" + str(dist) + " register sets, the loop unrolled by two)" if dist > 1 else ""},')
    w(f'// {"before" if early else "after"} the first barrier.')
    w('enable f16;\nenable wgpu_cooperative_matrix;\n')
    w('struct Params { m: u32 }')
    w('@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;')
    w('@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;')
    w('@group(0) @binding(2) var<storage, read_write> c: array<f32>;')
    w('@group(0) @binding(3) var<uniform> p: Params;')
    w('var<workgroup> sa: array<vec4<f16>, 1280>;')
    w('var<workgroup> sb: array<vec4<f16>, 2112>;\n')
    w('@compute @workgroup_size(256)')
    w('fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) t: u32) {')
    w('    let m = p.m;')
    w('    let row0 = wid.y * 128u;')
    w('    let col0 = wid.x * 256u;')
    w('    let sg = t / 32u;')
    w('    let ar = (sg / 4u) * 64u;')
    w('    let bc = (sg % 4u) * 16u;')
    for i in range(4):
        for j in range(4):
            w(f'    var c{i}{j}: coop_mat16x16<f32, C>;')
    w('    let q = m / 4u;')
    w('    let la = (row0 + t / 8u) * q + t % 8u;')
    w('    let pa = (t / 8u) * 10u + t % 8u;')
    w('    let lb = (t / 64u) * q + col0 / 4u + t % 64u;')
    w('    let pb = (t / 64u) * 66u + t % 64u;')
    def loads(s, kexpr):
        for j in range(4):
            w(f'    var ra{s}{j} = a[la + ({kexpr}) / 4u + {32 * j}u * q];')
        for j in range(8):
            w(f'    var rb{s}{j} = b[lb + ({kexpr} + {4 * j}u) * q];')
    for s in range(dist):
        loads(s, f'min({32 * s}u, m - 32u)' if s else '0u')
    def step(s, kbase):
        for j in range(4):
            w(f'        sa[pa + {AOFF[j]}u] = ra{s}{j};')
        for j in range(8):
            w(f'        sb[pb + {BOFF[j]}u] = rb{s}{j};')
        def pre():
            w(f'        let kn{s} = min({kbase} + {32 * dist}u, m - 32u);')
            for j in range(4):
                w(f'        ra{s}{j} = a[la + kn{s} / 4u + {32 * j}u * q];')
            for j in range(8):
                w(f'        rb{s}{j} = b[lb + (kn{s} + {4 * j}u) * q];')
        if early:
            pre()
        w('        workgroupBarrier();')
        if not early:
            pre()
        for h in range(2):
            for i in range(4):
                w(f'        let a{i}_{s}{h} = coopLoadT<coop_mat16x16<f16, A>>(&sa[(ar + {16 * i}u) * 10u + {4 * h}u], 10u);')
            for j in range(4):
                w(f'        let b{j}_{s}{h} = coopLoadT<coop_mat16x16<f16, B>>(&sb[{1056 * h}u + bc + {4 * j}u], 66u);')
            for i in range(4):
                for j in range(4):
                    w(f'        c{i}{j} = coopMultiplyAdd(a{i}_{s}{h}, b{j}_{s}{h}, c{i}{j});')
        w('        workgroupBarrier();')
    step_k = 32 * dist
    w(f'    for (var k = 0u; k < m; k += {step_k}u) {{')
    step(0, 'k')
    if dist == 2:
        step(1, '(k + 32u)')
    w('    }')
    for i in range(4):
        for j in range(4):
            w('    {')
            w(f'        let at = &c[(row0 + ar + {16 * i}u) * m + col0 + bc * 4u + {16 * j}u];')
            w(f'        let v = c{i}{j};')
            w('        coopStoreT(v, at, m);')
            w('    }')
    w('}')
    return '\n'.join(o) + '\n'

if __name__ == '__main__':
    rs, wd = sys.argv[1], sys.argv[2]
    out = []
    for name, dist, early in [('matmul_f16_vec_p2', 2, False), ('matmul_f16_vec_p2e', 2, True), ('matmul_f16_vec_e', 1, True)]:
        out.append(sarek(name, dist, early))
        open(f'{wd}/{name}.wgsl', 'w').write(wgsl(name, dist, early))
    open(rs, 'w').write('\n'.join(out))
