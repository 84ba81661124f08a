def triton_poi_fused_add_cat_mul_neg_slice_unsqueeze_0(in_ptr0, in_ptr1, in_ptr2, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 134217728
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = tl.full([XBLOCK], True, tl.int1)[:]
    x3 = xindex
    x4 = (xindex % 524288)
    x0 = (xindex % 128)
    x5 = xindex // 128
    tmp0 = tl.load(in_ptr0 + (x3), None).to(tl.float32)
    tmp1 = tl.load(in_ptr1 + (x4), None, eviction_policy='evict_last').to(tl.float32)
    tmp17 = tl.load(in_ptr2 + (x4), None, eviction_policy='evict_last').to(tl.float32)
    tmp2 = tmp0 * tmp1
    tmp3 = x0
    tmp4 = tl.full([1], 0, tl.int64)
    tmp5 = tmp3 >= tmp4
    tmp6 = tl.full([1], 64, tl.int64)
    tmp7 = tmp3 < tmp6
    tmp8 = tl.load(in_ptr0 + (64 + 128*x5 + (x0)), tmp7, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp9 = -tmp8
    tmp10 = tl.full(tmp9.shape, 0.0, tmp9.dtype)
    tmp11 = tl.where(tmp7, tmp9, tmp10)
    tmp12 = tmp3 >= tmp6
    tmp13 = tl.full([1], 128, tl.int64)
    tmp14 = tmp3 < tmp13
    tmp15 = tl.load(in_ptr0 + (128*x5 + ((-64) + x0)), tmp12, eviction_policy='evict_last', other=0.0).to(tl.float32)
    tmp16 = tl.where(tmp7, tmp11, tmp15)
    tmp18 = tmp16 * tmp17
    tmp19 = tmp2 + tmp18
    tl.store(out_ptr0 + (x3), tmp19, None)
''', device_str='cuda')
