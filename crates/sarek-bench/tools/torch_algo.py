#!/usr/bin/env python3
"""PyTorch (CUDA) on the operations of `sarek::algo`, at the benchmark suite's sizes, for the
side-by-side table in BENCHMARKS.md. Run it on the same host, right after `algo_bench` and
`sarek-bench --only sort`, so that both see the same GPU and clocks.

Each operation runs for about a second before it is timed (GPU clocks fall between waited
launches), then the median of 20 runs timed with CUDA events is printed as one JSON line.

Matrix products (`torch.matmul` of row-major matrices, as `algo_bench matmul` times
`sarek::algo::matmul`) print TFLOP/s: f16 at 4096³, 4095×4097×4093 and GPT-2's 8192×3072×768
and 8192×768×3072, f32 at 4096³ (PyTorch's default float32 precision, no TF32).

Attention (`torch.nn.functional.scaled_dot_product_attention` of f16 [B, H, T, d] tensors,
is_causal=True, as `algo_bench attention` times `sarek::algo::attention`) prints TFLOP/s
counting 4·B·H·T²·d operations, half of them under the causal mask: B=8 H=12 T=1024 d=64 and
B=4 H=16 T=4096 d=128.

Usage: torch_algo.py [--n LOG2] [--matmul] [--attention] [--rows]  (default 26; --matmul: only
the products; --attention: only attention; --rows: only softmax and layer norm)"""
import json
import sys

import torch


def median_us(fn, runs=20, warm_s=1.0):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    once_ms = max(start.elapsed_time(end), 1e-3)
    for _ in range(max(1, int(warm_s * 1000 / once_ms))):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(runs):
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def main():
    log2 = 26
    if "--n" in sys.argv:
        log2 = int(sys.argv[sys.argv.index("--n") + 1])
    n = 1 << log2
    dev = "cuda"
    if "--attention" in sys.argv:
        attentions(dev)
        return
    if "--rows" in sys.argv:
        row_ops(dev)
        return
    matmuls(dev)
    if "--matmul" in sys.argv:
        return
    attentions(dev)
    row_ops(dev)
    g = torch.Generator(device=dev).manual_seed(1)
    keys = torch.randint(-(2**31), 2**31 - 1, (n,), dtype=torch.int32, device=dev, generator=g)
    values = torch.arange(n, dtype=torch.int32, device=dev)
    x = torch.randn(n, device=dev, generator=g)
    rows = {
        "copy": (lambda: x.clone(), 8 * n),
        "sort_keys": (lambda: torch.sort(keys), None),
        # Pairs: the keys sorted with a value each, as a radix sort of pairs delivers them.
        "sort_pairs": (lambda: values[torch.sort(keys, stable=True).indices], None),
        "select_gt0": (lambda: x[x > 0], None),
        "histogram": (lambda: torch.histc(x, bins=100, min=-1.0, max=1.0), None),
        "topk_100": (lambda: torch.topk(x, 100), None),
        "sum": (lambda: x.sum(), 4 * n),
        "cumsum": (lambda: torch.cumsum(x, 0), 8 * n),
    }
    for name, (fn, bytes_moved) in rows.items():
        us = median_us(fn)
        row = {"op": name, "n": n, "us": round(us, 1)}
        if bytes_moved:
            row["GB/s"] = round(bytes_moved / us / 1e3, 1)
        print(json.dumps(row), flush=True)


def matmuls(dev):
    shapes = [
        (torch.float16, 4096, 4096, 4096),
        (torch.float16, 4095, 4097, 4093),
        (torch.float16, 8192, 3072, 768),
        (torch.float16, 8192, 768, 3072),
        (torch.float32, 4096, 4096, 4096),
    ]
    for dtype, m, n, k in shapes:
        a = torch.randn(m, k, device=dev, dtype=dtype)
        b = torch.randn(k, n, device=dev, dtype=dtype)
        us = median_us(lambda: torch.matmul(a, b))
        name = "matmul_f16" if dtype == torch.float16 else "matmul_f32"
        row = {"op": name, "shape": f"{m}x{n}x{k}", "us": round(us, 1)}
        row["TFLOP/s"] = round(2 * m * n * k / us / 1e6, 1)
        print(json.dumps(row), flush=True)


def attentions(dev):
    import torch.nn.functional as F

    shapes = [(8, 12, 1024, 64), (4, 16, 4096, 128)]
    for b, h, t, d in shapes:
        q, k, v = (
            torch.randn(b, h, t, d, device=dev, dtype=torch.float16) for _ in range(3)
        )
        us = median_us(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
        # 4·B·H·T²·d for Q·Kᵀ and P·V, half of it under the causal mask.
        flops = 2 * b * h * t * t * d
        row = {"op": "attention_f16_causal", "shape": f"B={b} H={h} T={t} d={d}", "us": round(us, 1)}
        row["TFLOP/s"] = round(flops / us / 1e6, 1)
        print(json.dumps(row), flush=True)


def row_ops(dev):
    import torch.nn.functional as F

    rows, vocab, channels = 8192, 50257, 768
    logits = torch.randn(rows, vocab, device=dev)
    us = median_us(lambda: torch.softmax(logits, -1))
    row = {"op": "softmax", "shape": f"{rows}x{vocab}", "us": round(us, 1)}
    row["GB/s"] = round(8 * rows * vocab / us / 1e3, 1)
    print(json.dumps(row), flush=True)
    x = torch.randn(rows, channels, device=dev)
    w = torch.randn(channels, device=dev)
    b = torch.randn(channels, device=dev)
    us = median_us(lambda: F.layer_norm(x, (channels,), w, b))
    row = {"op": "layer_norm", "shape": f"{rows}x{channels}", "us": round(us, 1)}
    row["GB/s"] = round(8 * rows * channels / us / 1e3, 1)
    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
