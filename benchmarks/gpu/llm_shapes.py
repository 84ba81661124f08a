"""The LLM linear-layer suite of shared/anchors/gemm_suite.py (h200-gemm-suite.json): y = x @ W^T,
bf16, W (N, K) as nn.Linear stores it, for the Llama-3 8B and 70B projections at several M, in
the anchor's order. gemm_bench.py and matmul_bench.py take it as `--shapes llm`."""

LLM_LAYERS = {"8B": [("qkv", 4096, 6144), ("o", 4096, 4096), ("gate_up", 4096, 28672),
                     ("down", 14336, 4096)],
              "70B": [("qkv", 8192, 10240), ("o", 8192, 8192), ("gate_up", 8192, 57344),
                      ("down", 28672, 8192)]}
LLM_MS = {"8B": [1, 16, 64, 256, 2048, 8192], "70B": [16, 2048]}
LLM_SHAPES = ",".join(f"bf16:{m}x{n}x{k}:bT" for model, layers in LLM_LAYERS.items()
                      for _, k, n in layers for m in LLM_MS[model])


def expand(text):
    """A --shapes list with each `llm` replaced by the suite's 32 shapes."""
    return ",".join(LLM_SHAPES if t == "llm" else t for t in text.split(","))
