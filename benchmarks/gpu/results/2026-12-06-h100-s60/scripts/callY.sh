#!/bin/bash
# s60 call Y: ncu of RoPE at B8 S4096 H32/8 D128 bf16, Hugging Face's (B, H, S, D) layout with one
# shared f32 (S, D) table: Tessel's rope_seq_out (session 59's winner, 128 tokens on 8 warps, and
# 32 on 4) through tessel-run-gpu, and torch.compile's kernel(s) for the same rotation; the same
# metrics for both, and inductor's generated kernel source.
cd "$(dirname "$0")"; o=$OUT/y; mkdir -p $o; export PYTHONUNBUFFERED=1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,sm__cycles_active.avg,sm__cycles_elapsed.avg,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
for v in rope_seq_out__bf16__HALF_64__BLOCK_S_128__num_warps_8__div8 rope_seq_out__bf16__HALF_64__BLOCK_S_32__num_warps_4__div8; do
  timeout 120 ncu --clock-control none --metrics $m -k regex:rope -c 1 ./tessel-run-gpu $v.json --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --opt cos=shared > $o/ncu_$v.txt 2>&1; echo "ncu $v rc=$?"
done
cat > /tmp/rope_tc.py <<'PY'
import torch
B, HQ, HK, S, D = 8, 32, 8, 4096, 128
dev, bf = "cuda", torch.bfloat16
q = torch.randn(B, HQ, S, D, device=dev, dtype=bf); k = torch.randn(B, HK, S, D, device=dev, dtype=bf)
ang = torch.arange(S, device=dev)[:, None] * (1e4 ** (-torch.arange(0, D, 2, device=dev) / D))
ang = torch.cat([ang, ang], -1)[None]
cos, sin = ang.cos().to(bf), ang.sin().to(bf)
def eager_rope(q, k):
    rot = lambda x: torch.cat([-x[..., D // 2:], x[..., :D // 2]], -1)
    c, s_ = cos[:, None], sin[:, None]
    return q * c + rot(q) * s_, k * c + rot(k) * s_
f = torch.compile(eager_rope)
for _ in range(3): f(q, k)
torch.cuda.synchronize()
PY
SECONDS=0; TORCH_LOGS=output_code timeout 200 python3 /tmp/rope_tc.py > $o/inductor_code.txt 2>&1; echo "inductor code rc=$? ${SECONDS}s"
SECONDS=0; timeout 240 ncu --clock-control none --metrics $m -k regex:triton -c 6 python3 /tmp/rope_tc.py > $o/ncu_compile.txt 2>&1; echo "ncu compile rc=$? ${SECONDS}s"
for f in $o/ncu_*.txt; do echo "== $(basename $f)"; grep -E "^  [a-zA-Z_].*\(|gpu__time|dram__|launch__(grid|block|reg)|smsp__inst|warps_active|stalled|sectors|requests|cycles" $f | tail -26 | awk '{$1=$1};1' | cut -c1-110; done
