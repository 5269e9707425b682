#!/usr/bin/env python3
"""A synthetic PyTorch profiler (Kineto) Chrome trace of about SIZE bytes.

    gen_trace.py OUT.json SIZE_MB [EXPECT.json]

Shaped like torch.profiler's export_chrome_trace of a training step:
schemaVersion, distributedInfo and deviceProperties (8 H100s), then
traceEvents with process/thread metadata ("ph": "M"), per launch a
cpu_op with Input Dims/types args, a cuda_runtime cudaLaunchKernel, the
kernel on its stream with Kineto's args (grid, block, registers,
occupancy ...), an ac2g flow pair ("ph": "s"/"f"), now and then a
memcpy, a memset, a python_function and an instant event; names with
templates, escapes and non-ASCII text. Deterministic (seeded). EXPECT
gets, per GPU name, the count and the sum of dur (microseconds) that
torch-trace must import, and the number of CPU-side "X" events.
"""
import json
import random
import sys

KERNELS = [
    "void at::native::vectorized_elementwise_kernel<4, at::native::"
    "CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, "
    "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroup"
    "size1x1x1_execute_segment_k_off_kernel__5x_cublas",
    "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, "
    "false, cutlass::bfloat16_t>, true, false, false, false, true, true>"
    "(Flash_fwd_params)",
    "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn",
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, "
    "float, float, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>"
    "(float*, float const*, int)",
    "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, "
    "ncclWork*)",
    "triton_poi_fused_add_mul_sigmoid_0 \u00b5s \"quoted\" \\ path",
]
CPU_OPS = ["aten::add", "aten::mm", "aten::_scaled_dot_product_flash_attention",
           "aten::softmax", "aten::copy_", "nccl:all_reduce",
           "aten::linear", "aten::empty_strided"]
MEMCPY = "Memcpy HtoD (Pageable -> Device)"
MEMSET = "Memset (Device)"


def main():
    out, size_mb = sys.argv[1], float(sys.argv[2])
    expect_path = sys.argv[3] if len(sys.argv) > 3 else None
    target = int(size_mb * 1024 * 1024)
    rnd = random.Random(36)
    gpu = {}
    cpu_x = 0

    def add_gpu(name, dur):
        n, s = gpu.get(name, (0, 0.0))
        gpu[name] = (n + 1, s + dur)

    head = {
        "schemaVersion": 1,
        "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8},
        "deviceProperties": [
            {"id": i, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem":
             85029158912, "computeMajor": 9, "computeMinor": 0,
             "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
             "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
             "warpSize": 32, "sharedMemPerBlock": 49152,
             "sharedMemPerMultiprocessor": 233472, "numSms": 132,
             "sharedMemPerBlockOptin": 232448} for i in range(8)],
        "cuda_runtime_version": 12040, "with_flops": 1,
        "record_shapes": 1, "with_stack": 0, "profile_memory": 1,
    }
    with open(out, "w", encoding="utf-8") as f:
        text = json.dumps(head, indent=2)
        f.write(text[:-2] + ',\n  "traceEvents": [\n')
        written = len(text) + 20
        meta = ('  {\n    "name": "process_name", "ph": "M", "ts": '
                '1691510394820126, "pid": %d, "tid": 0,\n    "args": {\n'
                '      "name": "%s"\n    }\n  },\n')
        for pid, name in ((402557, "python"), (0, "stream 7 \u00e9")):
            s = meta % (pid, name)
            f.write(s)
            written += len(s.encode())
        ts = 1691510394820126.0
        ext = 0
        first = True
        buf = []
        while written < target:
            ext += 1
            k = rnd.randrange(len(KERNELS))
            kname = KERNELS[k]
            op = CPU_OPS[k % len(CPU_OPS)]
            cdur = round(rnd.uniform(5, 80), 3)
            kdur = rnd.choice([rnd.randint(1, 900),
                               round(rnd.uniform(1, 900), 3)])
            ts += rnd.uniform(10, 30)
            ev = []
            ev.append('  {\n    "ph": "X", "cat": "cpu_op", "name": "%s", '
                      '"pid": 402557, "tid": 402557,\n    "ts": %.3f, '
                      '"dur": %.3f,\n    "args": {\n      "External id": %d,'
                      '"Record function id": 0, "Sequence number": %d, '
                      '"Fwd thread id": 0, "Ev Idx": %d,\n      "Input Dims":'
                      ' [[8192, 4096], [4096, 4096], []], "Input type": '
                      '["c10::BFloat16", "c10::BFloat16", "Scalar"], '
                      '"Input Strides": [[4096, 1], [4096, 1], []],\n      '
                      '"Concrete Inputs": ["", "", "1"]\n    }\n  }'
                      % (op, ts, cdur, ext, ext, ext))
            ev.append('  {\n    "ph": "X", "cat": "cuda_runtime", "name": '
                      '"cudaLaunchKernel", "pid": 402557, "tid": 402557,\n'
                      '    "ts": %.3f, "dur": %.3f,\n    "args": {\n      '
                      '"External id": %d, "cbid": 211, "correlation": %d\n'
                      '    }\n  }' % (ts + 1, 4.5, ext, ext))
            ev.append('  {\n    "ph": "f", "id": %d, "pid": 0, "tid": 7, '
                      '"ts": %.3f, "cat": "ac2g", "name": "ac2g", "bp": "e"\n'
                      '  }' % (ext, ts + 20))
            ev.append('  {\n    "ph": "s", "id": %d, "pid": 402557, "tid": '
                      '402557, "ts": %.3f, "cat": "ac2g", "name": "ac2g"\n  }'
                      % (ext, ts + 1))
            ev.append('  {\n    "ph": "X", "cat": "kernel", "name": "%s", '
                      '"pid": 0, "tid": 7,\n    "ts": %.3f, "dur": %s,\n'
                      '    "args": {\n      "External id": %d,\n      '
                      '"queued": 0, "device": 0, "context": 1,\n      '
                      '"stream": 7, "correlation": %d,\n      "registers '
                      'per thread": 168,\n      "shared memory": 213248,\n'
                      '      "blocks per SM": 0.969697,\n      "warps per SM":'
                      ' 11.636364,\n      "grid": [128, 1, 1],\n      '
                      '"block": [384, 1, 1],\n      "est. achieved occupancy'
                      ' %%": 19\n    }\n  }'
                      % (json.dumps(kname)[1:-1], ts + 20, kdur, ext, ext))
            cpu_x += 2
            add_gpu(kname, float(kdur))
            r = ext % 50
            if r == 0:
                d = round(rnd.uniform(1, 40), 3)
                ev.append('  {\n    "ph": "X", "cat": "gpu_memcpy", "name": '
                          '"%s", "pid": 0, "tid": 8,\n    "ts": %.3f, "dur": '
                          '%.3f,\n    "args": {\n      "device": 0, "context":'
                          ' 1, "stream": 8, "correlation": %d, "bytes": '
                          '4194304, "memory bandwidth (GB/s)": 21.3\n    }\n'
                          '  }' % (MEMCPY, ts + 30, d, ext))
                add_gpu(MEMCPY, d)
            elif r == 25:
                ev.append('  {\n    "ph": "X", "cat": "gpu_memset", "name": '
                          '"%s", "pid": 0, "tid": 7,\n    "ts": %.3f, "dur": '
                          '1.5,\n    "args": {\n      "device": 0, "stream": 7,'
                          ' "correlation": %d, "bytes": 512\n    }\n  }'
                          % (MEMSET, ts + 31, ext))
                add_gpu(MEMSET, 1.5)
            elif r == 10:
                ev.append('  {\n    "ph": "X", "cat": "python_function", '
                          '"name": "torch/nn/modules/module.py(1527): '
                          '_call_impl", "pid": 402557, "tid": 402557,\n    '
                          '"ts": %.3f, "dur": 120.0,\n    "args": {\n      '
                          '"Python parent id": %d, "Python id": %d, "Python '
                          'thread": 0\n    }\n  }' % (ts - 2, ext, ext + 1))
                cpu_x += 1
            elif r == 40:
                ev.append('  {\n    "name": "Iteration Start: PyTorch '
                          'Profiler", "ph": "i", "s": "g", "pid": "Traces", '
                          '"tid": "Trace PyTorch Profiler", "ts": %.3f\n  }'
                          % ts)
            s = ",\n".join(ev)
            if not first:
                s = ",\n" + s
            first = False
            buf.append(s)
            written += len(s.encode())
            if len(buf) >= 512:
                f.write("".join(buf))
                buf = []
        f.write("".join(buf))
        f.write('\n  ],\n  "traceName": "synthetic_trace.json"\n}\n')
    if expect_path:
        with open(expect_path, "w") as f:
            json.dump({"gpu": {k: {"n": v[0], "sum_us": v[1]}
                               for k, v in gpu.items()},
                       "cpu_x": cpu_x}, f)


if __name__ == "__main__":
    main()
