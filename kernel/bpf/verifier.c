// SPDX-License-Identifier: GPL-2.0
/*
 * The load-time checker: everything bpf_check() does before a program may
 * run. Three passes:
 *
 * 1. bpf_check_insns(): every instruction's opcode and reserved fields (the
 *    kernel's messages), ld_imm64 pairs, map references (taken into
 *    aux->used_maps and patched to plain constants), subprograms, jump
 *    ranges, the last instruction of each subprogram, reachability.
 * 2. kernel/bpf/verifier.c do_check(): an abstract walk over all paths. A state is the register
 *    and stack types of every frame of the call chain; registers are typed
 *    (ctx, packet, packet end, packet meta, map value (+ map), map value or
 *    NULL, map pointer, stack (+ frame, offset), scalar (constant or not)).
 *    Branches push a copy of the state on a work stack. At prune points
 *    (jump targets) states are remembered (kernel/bpf/states.c); a new state that an old one
 *    covers is not walked again. Loops converge by widening: once an
 *    instruction holds WIDEN_STATES states, the new state is joined with
 *    them (constants become unknown, offsets variable). The walk types each
 *    memory access, rejects what is never safe and records for each access
 *    whether it is proven (constant stack offsets, constant map value
 *    offsets, constant packet offsets inside a range established by a
 *    comparison with data_end) or must be checked at run time against its
 *    region.
 * 3. bpf_do_fixups(): rewrites struct xdp_md loads, checked accesses, helper and
 *    tail calls, bpf-to-bpf calls into the internal forms of
 *    <linux/bpf_verifier.h>, replaces never-visited instructions with a
 *    self-jump (as the kernel's sanitize_dead_code) and checks the stack
 *    depth over the call chains.
 *
 * Kernel: kernel/bpf/verifier.c bpf_check(), do_check(),
 *	   check_subprogs(), resolve_pseudo_ldimm64(), check_mem_access(),
 *	   check_helper_call(), convert_ctx_accesses(), do_misc_fixups();
 *	   net/core/filter.c xdp_is_valid_access(), xdp_convert_ctx_access()
 * Differs: no scalar range tracking, so variable-offset accesses and packet
 *	    accesses outside a proven range are checked at run time instead
 *	    (the kernel rejects what it cannot prove); reads that partly cover
 *	    unwritten stack are accepted (privileged kernel) with the stack
 *	    zeroed per run; loops are bounded at run time by an
 *	    instruction budget instead of being unrolled; programs are treated
 *	    as untrusted: pointers may not be stored into maps, packets or
 *	    returned; no BTF, kfuncs or reference leak tracking.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>
#include <linux/bpf_verifier.h>
#include <linux/filter.h>
#include <net/xdp.h>

#define MAX_PACKET_OFF	0xffff	/* kernel: largest packet range tracked */

static const char *const reg_type_str[] = {
	[NOT_INIT] = "?",
	[SCALAR_VALUE] = "scalar",
	[PTR_TO_CTX] = "ctx",
	[CONST_PTR_TO_MAP] = "map_ptr",
	[PTR_TO_MAP_VALUE] = "map_value",
	[PTR_TO_MAP_VALUE_OR_NULL] = "map_value_or_null",
	[CONST_PTR_TO_MAP_OR_NULL] = "map_ptr_or_null",
	[PTR_TO_STACK] = "fp",
	[PTR_TO_PACKET] = "pkt",
	[PTR_TO_PACKET_META] = "pkt_meta",
	[PTR_TO_PACKET_END] = "pkt_end",
	[PTR_TO_MEM] = "mem",
	[PTR_TO_FUNC] = "func",
	[PTR_TO_ALLOC_MEM] = "alloc_mem",
	[PTR_TO_ALLOC_MEM_OR_NULL] = "alloc_mem_or_null",
};

static const char *const func_id_names[] = {
#define __BPF_FUNC_NAME(x)	[BPF_FUNC_##x] = "bpf_" #x
	__BPF_FUNC_MAPPER(__BPF_FUNC_NAME)
#undef __BPF_FUNC_NAME
};

static const char *func_id_name(s32 id)
{
	if (id >= 0 && (u32)id < ARRAY_SIZE(func_id_names) && func_id_names[id])
		return func_id_names[id];
	return "bpf_unknown";
}

__printf(2, 3) void bpf_verbose(struct bpf_verifier_env *env, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!env->log || env->log_len + 1 >= env->log_size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(env->log + env->log_len, env->log_size - env->log_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		env->log_len = min_t(u32, env->log_len + n, env->log_size - 1);
}


static int check_reg_read(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i, u32 regno)
{
	if (cur_frame(st)->regs[regno].type == NOT_INIT) {
		vinsn(env, i, "R%u !read_ok", regno);
		return -EACCES;
	}
	return 0;
}

static int check_reg_write(struct bpf_verifier_env *env, u32 i, u32 regno)
{
	if (regno == BPF_REG_10) {
		vinsn(env, i, "frame pointer is read only");
		return -EACCES;
	}
	return 0;
}

static void record_access(struct bpf_verifier_env *env, u32 i, enum bpf_access_kind kind, u32 region)
{
	struct bpf_insn_aux_data *aux = &env->aux[i];

	if (aux->access == ACC_NONE) {
		aux->access = kind;
		aux->region = region;
		return;
	}
	if (aux->region != region)
		aux->region = BPF_RGN(BPF_RGN_ANY, 0);
	if (kind == ACC_CHECKED)
		aux->access = ACC_CHECKED;
}

static int map_region(struct bpf_verifier_env *env, u32 i, const struct bpf_map *map, u32 *rgn)
{
	int idx = bpf_used_map_idx(env, map);

	if (idx < 0) {
		vinsn(env, i, "variable offset access into an inner map value is not supported");
		return -EACCES;
	}
	*rgn = BPF_RGN(BPF_RGN_MAP, idx);
	return 0;
}

static void invalidate_spills(struct bpf_func_state *fs)
{
	u32 s;

	for (s = 0; s < STACK_SLOTS; s++)
		fs->stack[s].spilled = false;
}

static void update_stack_depth(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 frameno, s64 off)
{
	struct bpf_subprog_info *sp = &env->subprogs[st->frame[frameno]->subprog];

	if (-off > (s64)sp->stack_depth)
		sp->stack_depth = (u32)-off;
}

/*
 * Are the @size bytes at fp + @off written? None: refused (@regno >= 0: an
 * indirect read by a helper through R@regno). Some: fine, the stack is
 * zeroed at run time.
 */
static int check_stack_read_init(struct bpf_verifier_env *env, struct bpf_func_state *fs, u32 i,
				 s64 off, u32 size, int regno)
{
	u32 b, written = 0;
	s64 a;

	for (a = off; a < off + size; a++) {
		const struct bpf_stack_state *slot = &fs->stack[(-a - 1) / 8];

		b = (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));
		written += !!(slot->init & (1u << b));
	}
	if (written == size)
		return 0;
	if (written) {
		env->zero_stack = true;
		return 0;
	}
	if (regno >= 0)
		vinsn(env, i, "invalid indirect read from stack R%d off %lld+0 size %u", regno,
		      (long long)off, size);
	else
		vinsn(env, i, "invalid read from stack off %lld+0 size %u", (long long)off, size);
	return -EACCES;
}

/*
 * Access of @size bytes at fp + @off of frame @fs. @val is the register
 * stored (NULL for a store of an immediate @imm or a load).
 */
static int check_stack_access(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i,
			      const struct bpf_reg_state *ptr, s64 off, u32 size, bool write,
			      const struct bpf_reg_state *val, bool imm_store, s64 imm,
			      struct bpf_reg_state *dst, bool sx)
{
	struct bpf_func_state *fs = st->frame[ptr->frameno];
	s64 a;
	u32 b;
	int err;

	if (off < -MAX_BPF_STACK || off + size > 0) {
		vinsn(env, i, "invalid %s stack off=%lld size=%u", write ? "write to" : "read from",
		      (long long)off, size);
		return -EACCES;
	}
	if (off % size) {
		vinsn(env, i, "misaligned stack access off %lld size %u", (long long)off, size);
		return -EACCES;
	}
	update_stack_depth(env, st, ptr->frameno, off);
	if (write) {
		struct bpf_stack_state *slot = &fs->stack[(-off - 1) / 8];

		if (val && is_ptr(val) && val->type == PTR_TO_STACK && val->frameno > ptr->frameno) {
			vinsn(env, i, "cannot spill pointers to stack into stack frame of the caller");
			return -EACCES;
		}
		if (size == 8 && (val || imm_store)) {
			slot->init = 0xff;
			slot->spilled = true;
			if (val)
				slot->spill = *val;
			else
				mark_const(&slot->spill, (u64)imm);
			return 0;
		}
		if (val && is_ptr(val)) {
			vinsn(env, i, "partial spill of a pointer at stack off=%lld", (long long)off);
			return -EACCES;
		}
		for (a = off; a < off + size; a++) {
			slot = &fs->stack[(-a - 1) / 8];
			b = (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));
			slot->init |= 1u << b;
			slot->spilled = false;
		}
		return 0;
	}
	/*
	 * Reading never-written stack is refused; a read that covers some
	 * written bytes (struct padding, partly filled buffers) is accepted
	 * as the privileged kernel does, with the stack zeroed per run so the
	 * unwritten bytes read as zero.
	 */
	err = check_stack_read_init(env, fs, i, off, size, -1);
	if (err)
		return err;
	if (dst) {
		struct bpf_stack_state *slot = &fs->stack[(-off - 1) / 8];

		if (size == 8 && slot->spilled && !sx)
			*dst = slot->spill;
		else
			mark_scalar(dst);
	}
	return 0;
}

/*
 * A load, store or atomic through register @ptr_regno at insn->off.
 * @dst receives the loaded value (loads only); @val is the stored register
 * (STX), NULL for ST.
 */
static int check_mem_access(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i,
			    u32 ptr_regno, u32 size, bool write, const struct bpf_reg_state *val,
			    struct bpf_reg_state *dst, bool sx, bool atomic)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct bpf_reg_state *ptr = &cur_frame(st)->regs[ptr_regno];
	/* wraps, never overflows: a scalar's off is its value and may be anything */
	s64 off = (s64)((u64)ptr->off + (u64)(s64)insn->off);
	u32 rgn;
	int err;

	if (write && val && is_ptr(val) && ptr->type != PTR_TO_STACK) {
		vinsn(env, i, "R%u leaks addr into %s", insn->src_reg, reg_type_str[ptr->type]);
		return -EACCES;
	}
	switch (ptr->type) {
	case NOT_INIT:
		vinsn(env, i, "R%u !read_ok", ptr_regno);
		return -EACCES;
	case PTR_TO_CTX:
		if (env->prog->type != BPF_PROG_TYPE_XDP) {
			vinsn(env, i, "invalid mem access 'ctx'");
			return -EACCES;
		}
		if (ptr->off || ptr->var) {
			vinsn(env, i, "dereference of modified ctx ptr R%u off=%lld disallowed",
			      ptr_regno, (long long)ptr->off);
			return -EACCES;
		}
		if (write || atomic || sx || size != 4 || insn->off < 0 || insn->off % 4 ||
		    insn->off >= (s16)sizeof(struct xdp_md) ||
		    (insn->off == offsetof(struct xdp_md, egress_ifindex) &&
		     env->prog->expected_attach_type != BPF_XDP_DEVMAP)) {
			vinsn(env, i, "invalid bpf_context access off=%d size=%u", insn->off, size);
			return -EACCES;
		}
		if (env->aux[i].access != ACC_NONE &&
		    (env->aux[i].access != ACC_CTX || env->aux[i].ctx_field != insn->off)) {
			vinsn(env, i, "same insn cannot be used with different pointers");
			return -EINVAL;
		}
		env->aux[i].access = ACC_CTX;
		env->aux[i].ctx_field = insn->off;
		switch (insn->off) {
		case offsetof(struct xdp_md, data):
			memset(dst, 0, sizeof(*dst));
			dst->type = PTR_TO_PACKET;
			break;
		case offsetof(struct xdp_md, data_end):
			memset(dst, 0, sizeof(*dst));
			dst->type = PTR_TO_PACKET_END;
			break;
		case offsetof(struct xdp_md, data_meta):
			memset(dst, 0, sizeof(*dst));
			dst->type = PTR_TO_PACKET_META;
			break;
		default:
			mark_scalar(dst);
		}
		return 0;
	case PTR_TO_STACK:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		if (atomic) {
			struct bpf_func_state *fs = st->frame[ptr->frameno];

			if (!ptr->var && off >= -MAX_BPF_STACK && off + size <= 0 &&
			    fs->stack[(-off - 1) / 8].spilled &&
			    is_ptr(&fs->stack[(-off - 1) / 8].spill)) {
				vinsn(env, i, "BPF_ATOMIC on a spilled pointer is not allowed");
				return -EACCES;
			}
		}
		if (ptr->var) {
			/* run-time checked against the whole stack */
			record_access(env, i, ACC_CHECKED, BPF_RGN(BPF_RGN_STACK, 0));
			env->zero_stack = true;
			if (write) {
				if (val && is_ptr(val)) {
					vinsn(env, i, "R%u variable-offset spill of a pointer", insn->src_reg);
					return -EACCES;
				}
				invalidate_spills(st->frame[ptr->frameno]);
			}
			if (dst)
				mark_scalar(dst);
			return 0;
		}
		if (atomic) {
			err = check_stack_access(env, st, i, ptr, off, size, false, NULL, false,
						 0, NULL, false);
			if (err)
				return err;
			err = check_stack_access(env, st, i, ptr, off, size, true, NULL, false, 0,
						 NULL, false);
			if (dst)
				mark_scalar(dst);
		} else {
			err = check_stack_access(env, st, i, ptr, off, size, write, val,
						 write && !val, insn->imm, dst, sx);
		}
		if (err)
			return err;
		record_access(env, i, ACC_PROVEN, BPF_RGN(BPF_RGN_STACK, 0));
		return 0;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		if (atomic) {
			vinsn(env, i, "BPF_ATOMIC stores into R%u pkt is not allowed", ptr_regno);
			return -EACCES;
		}
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		/* proven by a comparison with data_end on this path? */
		if (ptr->type == PTR_TO_PACKET && !ptr->var && off >= 0 && off + size <= ptr->range)
			record_access(env, i, ACC_PROVEN, BPF_RGN(BPF_RGN_PKT, 0));
		else
			record_access(env, i, ACC_CHECKED, BPF_RGN(BPF_RGN_PKT, 0));
		if (dst)
			mark_scalar(dst);
		return 0;
	case PTR_TO_MAP_VALUE:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		if (write && (ptr->map->rdonly_prog || (ptr->map->map_flags & BPF_F_RDONLY_PROG))) {
			vinsn(env, i, "write into map forbidden, value_size=%u off=%lld size=%u",
			      ptr->map->value_size, (long long)off, size);
			return -EACCES;
		}
		if (ptr->var || (atomic && off % size)) {
			err = map_region(env, i, ptr->map, &rgn);
			if (err)
				return err;
			record_access(env, i, ACC_CHECKED, rgn);
		} else {
			if (off < 0 || off + size > ptr->map->value_size) {
				vinsn(env, i, "invalid access to map value, value_size=%u off=%lld size=%u",
				      ptr->map->value_size, (long long)off, size);
				return -EACCES;
			}
			rgn = BPF_RGN(BPF_RGN_MAP, 0);
			if (bpf_used_map_idx(env, ptr->map) >= 0)
				rgn = BPF_RGN(BPF_RGN_MAP, bpf_used_map_idx(env, ptr->map));
			record_access(env, i, ACC_PROVEN, rgn);
		}
		if (dst)
			mark_scalar(dst);
		return 0;
	case PTR_TO_ALLOC_MEM:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		if (ptr->var || (atomic && off % size)) {
			err = map_region(env, i, ptr->map, &rgn);
			if (err)
				return err;
			record_access(env, i, ACC_CHECKED, rgn);
		} else {
			if (off < 0 || off + size > ptr->mem_size) {
				vinsn(env, i, "invalid access to memory, mem_size=%u off=%lld size=%u",
				      ptr->mem_size, (long long)off, size);
				return -EACCES;
			}
			record_access(env, i, ACC_PROVEN, BPF_RGN(BPF_RGN_MAP, 0));
		}
		if (dst)
			mark_scalar(dst);
		return 0;
	case PTR_TO_MEM:
		if (env->aux[i].access == ACC_CTX)
			goto mixed;
		record_access(env, i, ACC_CHECKED, BPF_RGN(BPF_RGN_MEM, 0));
		if (dst)
			mark_scalar(dst);
		return 0;
	default:
		vinsn(env, i, "R%u invalid mem access '%s'", ptr_regno, reg_type_str[ptr->type]);
		return -EACCES;
	}
mixed:
	vinsn(env, i, "same insn cannot be used with different pointers");
	return -EINVAL;
}

/* Constant folding with the interpreter's semantics. */
static u64 alu_eval(u8 code, s16 off, s32 imm, u64 d, u64 s)
{
	bool is64 = BPF_CLASS(code) == BPF_ALU64;
	u32 d32 = (u32)d, s32v = (u32)s;

	if (!is64) {
		switch (BPF_OP(code)) {
		case BPF_ADD: return (u32)(d32 + s32v);
		case BPF_SUB: return (u32)(d32 - s32v);
		case BPF_MUL: return (u32)(d32 * s32v);
		case BPF_OR: return d32 | s32v;
		case BPF_AND: return d32 & s32v;
		case BPF_XOR: return d32 ^ s32v;
		case BPF_LSH: return (u32)(d32 << (s32v & 31));
		case BPF_RSH: return d32 >> (s32v & 31);
		case BPF_ARSH: return (u32)((s32)d32 >> (s32v & 31));
		case BPF_NEG: return (u32)-d32;
		case BPF_MOV:
			return off == 8 ? (u32)(s32)(s8)s : off == 16 ? (u32)(s32)(s16)s : s32v;
		case BPF_DIV:
			if (!s32v)
				return 0;
			if (off)
				return (s32)s32v == -1 ? (u32)-d32 : (u32)((s32)d32 / (s32)s32v);
			return d32 / s32v;
		case BPF_MOD:
			if (!s32v)
				return d32;
			if (off)
				return (s32)s32v == -1 ? 0 : (u32)((s32)d32 % (s32)s32v);
			return d32 % s32v;
		case BPF_END:
			if (BPF_SRC(code) == BPF_TO_LE)
				return imm == 16 ? (u16)d : imm == 32 ? (u32)d : d;
			return imm == 16 ? __builtin_bswap16((u16)d) :
			       imm == 32 ? __builtin_bswap32((u32)d) : __builtin_bswap64(d);
		}
		return 0;
	}
	switch (BPF_OP(code)) {
	case BPF_ADD: return d + s;
	case BPF_SUB: return d - s;
	case BPF_MUL: return d * s;
	case BPF_OR: return d | s;
	case BPF_AND: return d & s;
	case BPF_XOR: return d ^ s;
	case BPF_LSH: return d << (s & 63);
	case BPF_RSH: return d >> (s & 63);
	case BPF_ARSH: return (u64)((s64)d >> (s & 63));
	case BPF_NEG: return -d;
	case BPF_MOV:
		return off == 8 ? (u64)(s8)s : off == 16 ? (u64)(s16)s :
		       off == 32 ? (u64)(s32)s : s;
	case BPF_DIV:
		if (!s)
			return 0;
		if (off)
			return (s64)s == -1 ? -d : (u64)((s64)d / (s64)s);
		return d / s;
	case BPF_MOD:
		if (!s)
			return d;
		if (off)
			return (s64)s == -1 ? 0 : (u64)((s64)d % (s64)s);
		return d % s;
	case BPF_END:
		return imm == 16 ? __builtin_bswap16((u16)d) :
		       imm == 32 ? __builtin_bswap32((u32)d) : __builtin_bswap64(d);
	}
	return 0;
}

static int check_alu(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct bpf_func_state *fs = cur_frame(st);
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	u8 op = BPF_OP(insn->code);
	/* END's source bit is the byte order, not a register */
	bool x = BPF_SRC(insn->code) == BPF_X && op != BPF_END;
	struct bpf_reg_state *dst = &fs->regs[insn->dst_reg];
	struct bpf_reg_state src;
	int err;

	err = check_reg_write(env, i, insn->dst_reg);
	if (err)
		return err;
	if (x) {
		err = check_reg_read(env, st, i, insn->src_reg);
		if (err)
			return err;
		src = fs->regs[insn->src_reg];
	} else {
		mark_const(&src, is64 ? (u64)(s64)insn->imm : (u64)(u32)insn->imm);
	}

	if (op == BPF_MOV) {
		if (x && is_ptr(&src) && (!is64 || insn->off)) {
			mark_scalar(dst);	/* partial copy of a pointer */
			return 0;
		}
		if (x && !insn->off && is64) {
			*dst = src;
			return 0;
		}
		if (src.var)
			mark_scalar(dst);
		else
			mark_const(dst, alu_eval(insn->code, insn->off, insn->imm, 0, (u64)src.off));
		return 0;
	}

	err = check_reg_read(env, st, i, insn->dst_reg);
	if (err)
		return err;

	if (is_ptr(dst) || is_ptr(&src)) {
		struct bpf_reg_state *ptr = is_ptr(dst) ? dst : &src;
		const struct bpf_reg_state *scal = is_ptr(dst) ? &src : dst;

		if (is_ptr(dst) && is_ptr(&src)) {
			/* the kernel (privileged) turns any pointer difference,
			 * 32- or 64-bit, into an unknown scalar */
			if (op == BPF_SUB) {
				mark_scalar(dst);
				return 0;
			}
			vinsn(env, i, "R%u pointer %s pointer prohibited", insn->dst_reg,
			      op == BPF_SUB ? "-=" : "op");
			return -EACCES;
		}
		if (!is64) {
			/* 32-bit SUB yields a meaningless scalar (privileged kernel) */
			if (op == BPF_SUB) {
				mark_scalar(dst);
				return 0;
			}
			vinsn(env, i, "R%u 32-bit pointer arithmetic prohibited", insn->dst_reg);
			return -EACCES;
		}
		if (op == BPF_SUB && !is_ptr(dst)) {
			vinsn(env, i, "R%u tried to subtract pointer from scalar", insn->dst_reg);
			return -EACCES;
		}
		if (op != BPF_ADD && op != BPF_SUB) {
			vinsn(env, i, "R%u pointer arithmetic with this operator prohibited",
			      insn->dst_reg);
			return -EACCES;
		}
		switch (ptr->type) {
		case PTR_TO_CTX:
		case PTR_TO_STACK:
		case PTR_TO_PACKET:
		case PTR_TO_PACKET_META:
		case PTR_TO_MAP_VALUE:
		case PTR_TO_MEM:
		case PTR_TO_ALLOC_MEM:
			break;
		default:
			vinsn(env, i, "R%u pointer arithmetic on %s prohibited%s", insn->dst_reg,
			      reg_type_str[ptr->type],
			      ptr->type == PTR_TO_MAP_VALUE_OR_NULL ? ", null-check it first" : "");
			return -EACCES;
		}
		{
			struct bpf_reg_state res = *ptr;

			if (scal->var || res.var) {
				res.var = true;
				res.off = 0;
			} else {
				bool ovf = op == BPF_ADD ? __builtin_add_overflow(res.off, scal->off, &res.off) :
							   __builtin_sub_overflow(res.off, scal->off, &res.off);

				if (ovf || res.off > (1 << 29) || res.off < -(1 << 29)) {
					vinsn(env, i, "R%u pointer offset %lld is not allowed",
					      insn->dst_reg, (long long)res.off);
					return -EACCES;
				}
			}
			*dst = res;
		}
		return 0;
	}

	if (dst->var || src.var)
		mark_scalar(dst);
	else
		mark_const(dst, alu_eval(insn->code, insn->off, insn->imm, (u64)dst->off,
					 (u64)src.off));
	return 0;
}

/* 1 taken, 0 not taken, -1 unknown */
static int cond_eval(u8 op, bool is32, u64 a, u64 b)
{
	if (is32) {
		a = (u32)a;
		b = (u32)b;
		switch (op) {
		case BPF_JSGT: return (s32)a > (s32)b;
		case BPF_JSGE: return (s32)a >= (s32)b;
		case BPF_JSLT: return (s32)a < (s32)b;
		case BPF_JSLE: return (s32)a <= (s32)b;
		}
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return !!(a & b);
	case BPF_JSGT: return (s64)a > (s64)b;
	case BPF_JSGE: return (s64)a >= (s64)b;
	case BPF_JSLT: return (s64)a < (s64)b;
	case BPF_JSLE: return (s64)a <= (s64)b;
	}
	return -1;
}

static void mark_id(struct bpf_verifier_state *st, u32 id, bool is_null)
{
	u32 f, i;

	for (f = 0; f <= st->curframe; f++) {
		struct bpf_func_state *fs = st->frame[f];

		for (i = 0; i < MAX_BPF_REG + STACK_SLOTS; i++) {
			struct bpf_reg_state *r;

			if (i < MAX_BPF_REG) {
				r = &fs->regs[i];
			} else {
				if (!fs->stack[i - MAX_BPF_REG].spilled)
					continue;
				r = &fs->stack[i - MAX_BPF_REG].spill;
			}
			if (r->id != id || !r->id)
				continue;
			if (is_null) {
				mark_const(r, 0);
				continue;
			}
			if (r->type == PTR_TO_MAP_VALUE_OR_NULL)
				r->type = PTR_TO_MAP_VALUE;
			else if (r->type == CONST_PTR_TO_MAP_OR_NULL)
				r->type = CONST_PTR_TO_MAP;
			else if (r->type == PTR_TO_ALLOC_MEM_OR_NULL)
				r->type = PTR_TO_ALLOC_MEM;
			else
				continue;
			if (r->type != PTR_TO_ALLOC_MEM)
				r->id = 0;
		}
	}
}

static bool is_or_null(u8 type)
{
	return type == PTR_TO_MAP_VALUE_OR_NULL || type == CONST_PTR_TO_MAP_OR_NULL ||
	       type == PTR_TO_ALLOC_MEM_OR_NULL;
}

enum pkt_range_branch {
	PKT_RANGE_NONE,
	PKT_RANGE_TAKEN,	/* the taken branch knows pkt <= data_end */
	PKT_RANGE_FALLTHROUGH,
};

/*
 * A 64-bit comparison of a constant-offset packet pointer with data_end:
 * which branch learns that the pointer is not past data_end (kernel:
 * try_match_pkt_pointers(); strict and non-strict alike give the offset,
 * which is conservative for the strict forms).
 */
static enum pkt_range_branch pkt_range_branch(u8 op, const struct bpf_reg_state *dst,
					      const struct bpf_reg_state *src)
{
	if (dst->type == PTR_TO_PACKET && !dst->var && src->type == PTR_TO_PACKET_END) {
		switch (op) {
		case BPF_JGT:	/* pkt > end: fall through when inside */
		case BPF_JGE:
			return PKT_RANGE_FALLTHROUGH;
		case BPF_JLE:
		case BPF_JLT:
			return PKT_RANGE_TAKEN;
		}
	}
	if (dst->type == PTR_TO_PACKET_END && src->type == PTR_TO_PACKET && !src->var) {
		switch (op) {
		case BPF_JGT:	/* end > pkt */
		case BPF_JGE:
			return PKT_RANGE_TAKEN;
		case BPF_JLE:
		case BPF_JLT:
			return PKT_RANGE_FALLTHROUGH;
		}
	}
	return PKT_RANGE_NONE;
}

/* Every constant-offset packet pointer of @st may access [data, data + @k). */
static void mark_pkt_range(struct bpf_verifier_state *st, s64 k)
{
	u32 f, i;

	if (k <= 0 || k > MAX_PACKET_OFF)
		return;
	for (f = 0; f <= st->curframe; f++) {
		struct bpf_func_state *fs = st->frame[f];

		for (i = 0; i < MAX_BPF_REG; i++)
			if (fs->regs[i].type == PTR_TO_PACKET && fs->regs[i].range < k)
				fs->regs[i].range = (s32)k;
		for (i = 0; i < STACK_SLOTS; i++)
			if (fs->stack[i].spilled && fs->stack[i].spill.type == PTR_TO_PACKET &&
			    fs->stack[i].spill.range < k)
				fs->stack[i].spill.range = (s32)k;
	}
}

/*
 * Conditional jump: decides the branch when it can, pushes the other one.
 * Returns the next insn of the current path, or a negative errno.
 */
static s64 check_cond_jmp(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct bpf_func_state *fs = cur_frame(st);
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	bool x = BPF_SRC(insn->code) == BPF_X;
	u8 op = BPF_OP(insn->code);
	u32 target = (u32)jmp_target(insn, i);
	struct bpf_reg_state *dst = &fs->regs[insn->dst_reg];
	struct bpf_reg_state src;
	int taken = -1, err;

	if (op == BPF_JCOND) {
		err = bpf_push_work(env, st, target);
		return err ? (s64)err : (s64)i + 1;
	}
	err = check_reg_read(env, st, i, insn->dst_reg);
	if (err)
		return err;
	if (x) {
		err = check_reg_read(env, st, i, insn->src_reg);
		if (err)
			return err;
		src = fs->regs[insn->src_reg];
	} else {
		mark_const(&src, is32 ? (u64)(u32)insn->imm : (u64)(s64)insn->imm);
	}

	if (dst->type == SCALAR_VALUE && src.type == SCALAR_VALUE && !dst->var && !src.var)
		taken = cond_eval(op, is32, (u64)dst->off, (u64)src.off);

	/* null checks: ptr_or_null ==/!= 0 */
	if (!is32 && (op == BPF_JEQ || op == BPF_JNE) && src.type == SCALAR_VALUE &&
	    !src.var && src.off == 0 && is_or_null(dst->type) && dst->id) {
		struct bpf_verifier_state other;
		u32 id = dst->id;

		err = bpf_copy_vstate(&other, st);
		if (err)
			return err;
		/* the taken branch of JEQ sees NULL */
		mark_id(&other, id, op == BPF_JEQ);
		mark_id(st, id, op != BPF_JEQ);
		err = bpf_push_work(env, &other, target);
		bpf_free_vstate(&other);
		return err ? (s64)err : (s64)i + 1;
	}
	/* data + K compared with data_end: [data, data + K) is in the packet */
	if (!is32 && x && pkt_range_branch(op, dst, &src) != PKT_RANGE_NONE) {
		enum pkt_range_branch where = pkt_range_branch(op, dst, &src);
		s64 k = dst->type == PTR_TO_PACKET ? dst->off : src.off;
		struct bpf_verifier_state other;

		err = bpf_copy_vstate(&other, st);
		if (err)
			return err;
		mark_pkt_range(where == PKT_RANGE_TAKEN ? &other : st, k);
		err = bpf_push_work(env, &other, target);
		bpf_free_vstate(&other);
		return err ? (s64)err : (s64)i + 1;
	}
	/* a pointer that cannot be NULL compared with 0 */
	if ((op == BPF_JEQ || op == BPF_JNE) && src.type == SCALAR_VALUE && !src.var &&
	    src.off == 0 && is_ptr(dst) && !is_or_null(dst->type) && !dst->var &&
	    dst->type != PTR_TO_CTX && !is32)
		taken = op == BPF_JNE;

	if (taken == 1)
		return target;
	if (taken == 0)
		return i + 1;
	err = bpf_push_work(env, st, target);
	return err ? (s64)err : (s64)i + 1;
}

static void clear_caller_saved(struct bpf_func_state *fs)
{
	u32 r;

	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		memset(&fs->regs[r], 0, sizeof(fs->regs[r]));
}

static void clear_pkt_pointers(struct bpf_verifier_state *st)
{
	u32 f, i;

	for (f = 0; f <= st->curframe; f++) {
		struct bpf_func_state *fs = st->frame[f];

		for (i = 0; i < MAX_BPF_REG; i++)
			if (is_pkt(fs->regs[i].type))
				mark_scalar(&fs->regs[i]);
		for (i = 0; i < STACK_SLOTS; i++)
			if (fs->stack[i].spilled && is_pkt(fs->stack[i].spill.type))
				mark_scalar(&fs->stack[i].spill);
	}
}

/*
 * A helper's pointer argument @regno must give @size readable (or, with
 * @write, writable) bytes; @size_reg is the register holding the size when
 * it is not constant (0 otherwise). Records a run-time check when needed.
 */
static int check_helper_mem(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i, u32 arg,
			    u32 regno, u32 size, u32 size_reg, bool size_known, bool write,
			    bool or_null)
{
	struct bpf_reg_state *r = &cur_frame(st)->regs[regno];
	struct bpf_insn_aux_data *aux = &env->aux[i];
	u32 rgn = 0;
	int err;

	if (or_null && r->type == SCALAR_VALUE && !r->var && r->off == 0) {
		/* NULL only with a size known to be 0 (kernel: check_helper_mem_access()) */
		if (size_known && !size)
			return 0;
		vinsn(env, i, "R%u type=scalar expected=fp, pkt, pkt_meta, map_value (NULL with a non-zero size)",
		      regno);
		return -EACCES;
	}
	if (size_known && !size)
		return 0;
	switch (r->type) {
	case PTR_TO_STACK:
		if (!r->var && size_known) {
			s64 off = r->off, a;
			struct bpf_func_state *fs = st->frame[r->frameno];

			if (off < -MAX_BPF_STACK || off + size > 0) {
				vinsn(env, i, "invalid indirect access to stack R%u off=%lld size=%u",
				      regno, (long long)off, size);
				return -EACCES;
			}
			update_stack_depth(env, st, r->frameno, off);
			if (!write)
				return check_stack_read_init(env, fs, i, off, size, (int)regno);
			for (a = off; a < off + size; a++) {
				struct bpf_stack_state *slot = &fs->stack[(-a - 1) / 8];
				u32 b = (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));

				slot->init |= 1u << b;
				slot->spilled = false;
			}
			return 0;
		}
		env->zero_stack = true;
		if (write)
			invalidate_spills(st->frame[r->frameno]);
		if (!r->var && !size_known) {
			struct bpf_func_state *fs = st->frame[r->frameno];
			s64 a;

			/* unknown size: whatever it touches is below fp */
			if (r->off >= 0 || r->off < -MAX_BPF_STACK) {
				vinsn(env, i, "invalid indirect access to stack R%u off=%lld",
				      regno, (long long)r->off);
				return -EACCES;
			}
			update_stack_depth(env, st, r->frameno, r->off);
			if (write)
				for (a = r->off; a < 0; a++)
					fs->stack[(-a - 1) / 8].init |=
						1u << (u32)(a - (-(s64)((-a - 1) / 8) * 8 - 8));
		}
		rgn = BPF_RGN(BPF_RGN_STACK, 0);
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		rgn = BPF_RGN(BPF_RGN_PKT, 0);
		break;
	case PTR_TO_MAP_VALUE:
		if (write && (r->map->rdonly_prog || (r->map->map_flags & BPF_F_RDONLY_PROG))) {
			vinsn(env, i, "write into map forbidden");
			return -EACCES;
		}
		if (!r->var && size_known) {
			if (r->off < 0 || r->off + size > r->map->value_size) {
				vinsn(env, i, "invalid access to map value, value_size=%u off=%lld size=%u",
				      r->map->value_size, (long long)r->off, size);
				return -EACCES;
			}
			return 0;
		}
		err = map_region(env, i, r->map, &rgn);
		if (err)
			return err;
		break;
	case PTR_TO_ALLOC_MEM:
		if (!r->var && size_known) {
			if (r->off < 0 || r->off + size > r->mem_size) {
				vinsn(env, i, "invalid access to memory, mem_size=%u off=%lld size=%u",
				      r->mem_size, (long long)r->off, size);
				return -EACCES;
			}
			return 0;
		}
		err = map_region(env, i, r->map, &rgn);
		if (err)
			return err;
		break;
	case PTR_TO_MEM:
		rgn = BPF_RGN(BPF_RGN_MEM, 0);
		break;
	case NOT_INIT:
		vinsn(env, i, "R%u !read_ok", regno);
		return -EACCES;
	default:
		vinsn(env, i, "R%u type=%s expected=fp, pkt, pkt_meta, map_value", regno,
		      reg_type_str[r->type]);
		return -EACCES;
	}
	if (aux->arg_check[arg] && aux->arg_region[arg] != rgn)
		rgn = BPF_RGN(BPF_RGN_ANY, 0);
	aux->arg_check[arg] = true;
	aux->arg_region[arg] = rgn;
	aux->arg_or_null[arg] = aux->arg_or_null[arg] || or_null;
	aux->arg_size_reg[arg] = (u8)size_reg;
	aux->arg_size[arg] = size;
	return 0;
}

/*
 * Which helpers may take which map types, both ways (kernel:
 * check_map_func_compatibility()). Type confusion here would hand, say, a
 * prog array's slots to a program as a map value.
 */
static int check_map_func_compat(struct bpf_verifier_env *env, u32 i, const struct bpf_map *map,
				 s32 func_id)
{
	switch (map->map_type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
		if (func_id != BPF_FUNC_tail_call)
			goto error;
		break;
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		if (func_id != BPF_FUNC_perf_event_output && func_id != BPF_FUNC_xdp_output &&
		    func_id != BPF_FUNC_perf_event_read && func_id != BPF_FUNC_perf_event_read_value)
			goto error;
		break;
	case BPF_MAP_TYPE_RINGBUF:
		if (func_id != BPF_FUNC_ringbuf_output && func_id != BPF_FUNC_ringbuf_reserve &&
		    func_id != BPF_FUNC_ringbuf_query)
			goto error;
		break;
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_XSKMAP:
		if (func_id != BPF_FUNC_redirect_map && func_id != BPF_FUNC_map_lookup_elem)
			goto error;
		break;
	case BPF_MAP_TYPE_CPUMAP:
		if (func_id != BPF_FUNC_redirect_map)
			goto error;
		break;
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		if (func_id != BPF_FUNC_map_lookup_elem)
			goto error;
		break;
	default:
		break;
	}

	switch (func_id) {
	case BPF_FUNC_tail_call:
		if (map->map_type != BPF_MAP_TYPE_PROG_ARRAY)
			goto error;
		break;
	case BPF_FUNC_perf_event_output:
	case BPF_FUNC_xdp_output:
	case BPF_FUNC_perf_event_read:
	case BPF_FUNC_perf_event_read_value:
		if (map->map_type != BPF_MAP_TYPE_PERF_EVENT_ARRAY)
			goto error;
		break;
	case BPF_FUNC_ringbuf_output:
	case BPF_FUNC_ringbuf_reserve:
	case BPF_FUNC_ringbuf_query:
		if (map->map_type != BPF_MAP_TYPE_RINGBUF)
			goto error;
		break;
	case BPF_FUNC_redirect_map:
		if (map->map_type != BPF_MAP_TYPE_DEVMAP && map->map_type != BPF_MAP_TYPE_DEVMAP_HASH &&
		    map->map_type != BPF_MAP_TYPE_CPUMAP && map->map_type != BPF_MAP_TYPE_XSKMAP)
			goto error;
		break;
	case BPF_FUNC_map_push_elem:
	case BPF_FUNC_map_pop_elem:
	case BPF_FUNC_map_peek_elem:
		if (map->map_type != BPF_MAP_TYPE_QUEUE && map->map_type != BPF_MAP_TYPE_STACK &&
		    map->map_type != BPF_MAP_TYPE_BLOOM_FILTER)
			goto error;
		break;
	default:
		break;
	}
	return 0;
error:
	vinsn(env, i, "cannot pass map_type %d into func %s#%d", map->map_type,
	      func_id_name(func_id), func_id);
	return -EINVAL;
}

/*
 * ARG_PTR_TO_CONST_STR: a constant offset into a read-only map value with a
 * NUL before the value ends (kernel: check_reg_const_str()).
 */
static int check_const_str(struct bpf_verifier_env *env, u32 i, u32 regno,
			   const struct bpf_reg_state *r)
{
	struct bpf_map *map = r->map;
	const char *str;
	u64 addr;

	if (r->type != PTR_TO_MAP_VALUE) {
		vinsn(env, i, "R%u type=%s expected=map_value", regno, reg_type_str[r->type]);
		return -EACCES;
	}
	if (!(map->rdonly_prog || (map->map_flags & BPF_F_RDONLY_PROG)) || !map->frozen) {
		vinsn(env, i, "R%u does not point to a readonly map'", regno);
		return -EACCES;
	}
	if (r->var || r->off < 0 || r->off >= map->value_size) {
		vinsn(env, i, "R%u the string must be at a constant offset in the map value", regno);
		return -EACCES;
	}
	if (!map->ops->map_direct_value_addr || map->ops->map_direct_value_addr(map, &addr, 0)) {
		vinsn(env, i, "no direct value access support for this map type");
		return -EACCES;
	}
	str = (const char *)(uintptr_t)addr;
	if (!memchr(str + r->off, '\0', map->value_size - r->off)) {
		vinsn(env, i, "string is not zero-terminated");
		return -EINVAL;
	}
	return 0;
}

/*
 * ARG_PTR_TO_FIXED_SIZE_MEM: @size bytes; with MEM_ALIGNED the pointer must
 * be aligned to @size (kernel: check_ptr_alignment(), strict): constant
 * offsets into the stack or a map value only, whose bases are aligned.
 */
static int check_fixed_size_mem(struct bpf_verifier_env *env, struct bpf_verifier_state *st,
				u32 i, u32 arg, u32 regno, u32 size, u32 t)
{
	const struct bpf_reg_state *r = &cur_frame(st)->regs[regno];
	bool wr = t & MEM_WRITE, uninit = t & MEM_UNINIT;

	if ((t & MEM_ALIGNED) && size > 1 &&
	    ((r->type != PTR_TO_STACK && r->type != PTR_TO_MAP_VALUE) || r->var ||
	     r->off % (s64)size)) {
		vinsn(env, i, "misaligned access R%u off=%lld size=%u", regno,
		      r->var ? 0LL : (long long)r->off, size);
		return -EACCES;
	}
	return (wr && !uninit ? check_helper_mem(env, st, i, arg, regno, size, 0, true, false,
						 false) : 0) ?:
	       check_helper_mem(env, st, i, arg, regno, size, 0, true, wr || uninit, false);
}

static int check_helper_call(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	struct bpf_func_state *fs = cur_frame(st);
	const struct bpf_func_proto *fn = NULL;
	struct bpf_map *map = NULL;
	struct bpf_reg_state *r0;
	u32 alloc_size = 0;
	u32 a, regno;
	int err;

	if (env->get_proto)
		fn = env->get_proto(insn->imm);
	if (insn->imm == BPF_FUNC_tail_call && env->prog->type == BPF_PROG_TYPE_XDP) {
		/* patched to BPF_TAIL_CALL; no proto needed */
		struct bpf_reg_state *r2 = &fs->regs[BPF_REG_2];

		for (regno = BPF_REG_1; regno <= BPF_REG_3; regno++) {
			err = check_reg_read(env, st, i, regno);
			if (err)
				return err;
		}
		if (fs->regs[BPF_REG_1].type != PTR_TO_CTX || fs->regs[BPF_REG_1].off) {
			vinsn(env, i, "R1 type=%s expected=ctx",
			      reg_type_str[fs->regs[BPF_REG_1].type]);
			return -EACCES;
		}
		if (r2->type != CONST_PTR_TO_MAP || r2->map->map_type != BPF_MAP_TYPE_PROG_ARRAY) {
			vinsn(env, i, "R2 type=%s expected=map_ptr of a prog array",
			      reg_type_str[r2->type]);
			return -EACCES;
		}
		if (fs->regs[BPF_REG_3].type != SCALAR_VALUE) {
			vinsn(env, i, "R3 type=%s expected=scalar", reg_type_str[fs->regs[BPF_REG_3].type]);
			return -EACCES;
		}
		env->subprogs[fs->subprog].has_tail_call = true;
		clear_caller_saved(fs);
		/* RET_VOID as in the kernel: a miss leaves R0 unreadable */
		memset(&fs->regs[BPF_REG_0], 0, sizeof(fs->regs[BPF_REG_0]));
		env->aux[i].call_seen = true;
		return 0;
	}
	if (!fn || !fn->func) {
		vinsn(env, i, "unknown func %s#%d", func_id_name(insn->imm), insn->imm);
		return -EINVAL;
	}

	for (a = 0; a < 5; a++) {
		enum bpf_arg_type t = fn->arg_type[a];
		/*
		 * The kernel's flags: MEM_UNINIT memory need not be initialised,
		 * MEM_WRITE memory is written (checked as a read first unless
		 * MEM_UNINIT, then as a write: no read-only map, spills gone).
		 */
		bool uninit = t & MEM_UNINIT, wr = t & MEM_WRITE, or_null = t & PTR_MAYBE_NULL;
		struct bpf_reg_state *r;

		regno = BPF_REG_1 + a;
		r = &fs->regs[regno];
		if (t == ARG_DONTCARE)
			continue;
		err = check_reg_read(env, st, i, regno);
		if (err)
			return err;
		switch (base_type(t)) {
		case ARG_CONST_MAP_PTR:
			if (r->type != CONST_PTR_TO_MAP) {
				vinsn(env, i, "R%u type=%s expected=map_ptr", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			map = r->map;
			err = check_map_func_compat(env, i, map, insn->imm);
			if (err)
				return err;
			break;
		case ARG_PTR_TO_MAP_KEY:
		case ARG_PTR_TO_MAP_VALUE: {
			u32 size;

			if (!map) {
				vinsn(env, i, "invalid map_ptr to access map->%s",
				      base_type(t) == ARG_PTR_TO_MAP_KEY ? "key" : "value");
				return -EACCES;
			}
			size = base_type(t) == ARG_PTR_TO_MAP_KEY ? map->key_size : map->value_size;
			err = (wr && !uninit ? check_helper_mem(env, st, i, a, regno, size, 0, true,
								false, false) : 0) ?:
			      check_helper_mem(env, st, i, a, regno, size, 0, true, wr || uninit, false);
			if (err)
				return err;
			break;
		}
		case ARG_PTR_TO_MEM: {
			struct bpf_reg_state *sz = &fs->regs[regno + 1];
			enum bpf_arg_type st_t = a < 4 ? fn->arg_type[a + 1] : ARG_DONTCARE;

			if (t & MEM_FIXED_SIZE) {
				err = check_fixed_size_mem(env, st, i, a, regno, fn->arg_size[a], t);
				if (err)
					return err;
				break;
			}

			if (st_t != ARG_CONST_SIZE && st_t != ARG_CONST_SIZE_OR_ZERO) {
				vinsn(env, i, "%s: R%u memory argument without a size argument",
				      func_id_name(insn->imm), regno);
				return -EINVAL;
			}
			err = check_reg_read(env, st, i, regno + 1);
			if (err)
				return err;
			if (sz->type != SCALAR_VALUE) {
				vinsn(env, i, "R%u type=%s expected=scalar", regno + 1,
				      reg_type_str[sz->type]);
				return -EACCES;
			}
			if (!sz->var && (s64)sz->off < 0) {
				vinsn(env, i, "R%u min value is negative, either use unsigned or 'var &= const'",
				      regno + 1);
				return -EACCES;
			}
			if (!sz->var && sz->off == 0 && st_t == ARG_CONST_SIZE) {
				vinsn(env, i, "R%u invalid zero-sized read", regno + 1);
				return -EACCES;
			}
			if (!sz->var && sz->off > (1 << 29)) {
				vinsn(env, i, "R%u unbounded memory access", regno + 1);
				return -EACCES;
			}
			err = (wr && !uninit ?
			       check_helper_mem(env, st, i, a, regno, sz->var ? 0 : (u32)sz->off,
						regno + 1, !sz->var, false, or_null) : 0) ?:
			      check_helper_mem(env, st, i, a, regno, sz->var ? 0 : (u32)sz->off,
					       regno + 1, !sz->var, wr || uninit, or_null);
			if (err)
				return err;
			break;
		}
		case ARG_CONST_SIZE:
		case ARG_CONST_SIZE_OR_ZERO:
			if (r->type != SCALAR_VALUE) {
				vinsn(env, i, "R%u type=%s expected=scalar", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_CONST_ALLOC_SIZE_OR_ZERO:
			if (r->type != SCALAR_VALUE || r->var) {
				vinsn(env, i, "R%u is not a known constant", regno);
				return -EACCES;
			}
			alloc_size = (u32)r->off;
			break;
		case ARG_PTR_TO_CTX:
			if (r->type != PTR_TO_CTX || r->off || r->var) {
				vinsn(env, i, "R%u type=%s expected=ctx", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_PTR_TO_FUNC:
			if (r->type != PTR_TO_FUNC) {
				vinsn(env, i, "R%u type=%s expected=func", regno, reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_PTR_TO_RINGBUF_MEM:
			if (r->type != PTR_TO_ALLOC_MEM || r->off || r->var) {
				vinsn(env, i, "R%u type=%s expected=alloc_mem", regno,
				      reg_type_str[r->type]);
				return -EACCES;
			}
			break;
		case ARG_PTR_TO_CONST_STR:
			err = check_const_str(env, i, regno, r);
			if (err)
				return err;
			break;
		case ARG_ANYTHING:
			break;
		default:
			vinsn(env, i, "%s: unsupported argument type %d", func_id_name(insn->imm), t);
			return -EINVAL;
		}
	}

	/* ringbuf submit/discard release the record */
	for (a = 0; a < 5; a++) {
		if (base_type(fn->arg_type[a]) == ARG_PTR_TO_RINGBUF_MEM &&
		    (fn->arg_type[a] & OBJ_RELEASE)) {
			u32 id = fs->regs[BPF_REG_1 + a].id;
			u32 f, k;

			for (f = 0; id && f <= st->curframe; f++) {
				for (k = 0; k < MAX_BPF_REG; k++)
					if (st->frame[f]->regs[k].id == id)
						mark_scalar(&st->frame[f]->regs[k]);
				for (k = 0; k < STACK_SLOTS; k++)
					if (st->frame[f]->stack[k].spilled &&
					    st->frame[f]->stack[k].spill.id == id)
						mark_scalar(&st->frame[f]->stack[k].spill);
			}
		}
	}

	env->aux[i].call_seen = true;
	clear_caller_saved(fs);
	r0 = &fs->regs[BPF_REG_0];
	switch (fn->ret_type) {
	case RET_VOID:
		memset(r0, 0, sizeof(*r0));
		break;
	case RET_PTR_TO_MAP_VALUE_OR_NULL:
		if (!map) {
			vinsn(env, i, "kernel subsystem misconfigured verifier");
			return -EINVAL;
		}
		memset(r0, 0, sizeof(*r0));
		if (map->map_type == BPF_MAP_TYPE_ARRAY_OF_MAPS ||
		    map->map_type == BPF_MAP_TYPE_HASH_OF_MAPS) {
			if (!map->inner_map_meta) {
				vinsn(env, i, "map %s has no inner map shape", map->name);
				return -EINVAL;
			}
			r0->type = CONST_PTR_TO_MAP_OR_NULL;
			r0->map = map->inner_map_meta;
		} else {
			r0->type = PTR_TO_MAP_VALUE_OR_NULL;
			r0->map = map;
		}
		r0->id = ++env->id_gen;
		break;
	case RET_PTR_TO_ALLOC_MEM_OR_NULL:
		memset(r0, 0, sizeof(*r0));
		r0->type = PTR_TO_ALLOC_MEM_OR_NULL;
		r0->map = map;
		r0->mem_size = alloc_size;
		r0->id = ++env->id_gen;
		break;
	case RET_INTEGER:
	default:
		mark_scalar(r0);
		break;
	}
	if (fn->changes_pkt_data)
		clear_pkt_pointers(st);
	return 0;
}

static int check_func_call(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i, u32 *next)
{
	const struct bpf_insn *insn = &env->prog->insnsi[i];
	u32 target = i + insn->imm + 1;
	struct bpf_func_state *caller = cur_frame(st), *callee;
	u32 r;

	if (st->curframe + 1 >= MAX_CALL_FRAMES) {
		vinsn(env, i, "the call stack of %u frames is too deep !", st->curframe + 2);
		return -E2BIG;
	}
	callee = calloc(1, sizeof(*callee));
	if (!callee)
		return -ENOMEM;
	callee->callsite = i;
	callee->subprog = bpf_find_subprog(env, target);
	for (r = BPF_REG_1; r <= BPF_REG_5; r++)
		callee->regs[r] = caller->regs[r];
	callee->regs[BPF_REG_10].type = PTR_TO_STACK;
	callee->regs[BPF_REG_10].frameno = (u8)(st->curframe + 1);
	st->frame[++st->curframe] = callee;
	env->aux[i].call_seen = true;
	*next = target;
	return 0;
}

static int check_exit(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i, s64 *next)
{
	struct bpf_func_state *callee = cur_frame(st), *caller;
	struct bpf_reg_state *r0 = &callee->regs[BPF_REG_0];
	int err;

	err = check_reg_read(env, st, i, BPF_REG_0);
	if (err)
		return err;
	if (!st->curframe) {
		if (r0->type != SCALAR_VALUE) {
			vinsn(env, i, "R0 leaks addr as return value");
			return -EACCES;
		}
		*next = -1;
		return 0;
	}
	if (r0->type == PTR_TO_STACK && r0->frameno == st->curframe) {
		vinsn(env, i, "cannot return stack pointer to the caller frame");
		return -EINVAL;
	}
	caller = st->frame[st->curframe - 1];
	*next = callee->callsite + 1;
	caller->regs[BPF_REG_0] = *r0;
	clear_caller_saved(caller);
	free(callee);
	st->frame[st->curframe--] = NULL;
	return 0;
}

static int do_check_insn(struct bpf_verifier_env *env, struct bpf_verifier_state *st, u32 i, s64 *next)
{
	struct bpf_insn *insn = &env->prog->insnsi[i];
	struct bpf_func_state *fs = cur_frame(st);
	u8 cls = BPF_CLASS(insn->code);
	u32 size;
	int err;

	*next = i + 1;
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu(env, st, i);
	case BPF_LDX:
		size = bpf_size_to_bytes(BPF_SIZE(insn->code));
		err = check_reg_read(env, st, i, insn->src_reg) ?:
		      check_reg_write(env, i, insn->dst_reg);
		if (err)
			return err;
		{
			struct bpf_reg_state res;

			err = check_mem_access(env, st, i, insn->src_reg, size, false, NULL, &res,
					       BPF_MODE(insn->code) == BPF_MEMSX, false);
			if (err)
				return err;
			fs->regs[insn->dst_reg] = res;
		}
		return 0;
	case BPF_ST:
		size = bpf_size_to_bytes(BPF_SIZE(insn->code));
		err = check_reg_read(env, st, i, insn->dst_reg);
		if (err)
			return err;
		return check_mem_access(env, st, i, insn->dst_reg, size, true, NULL, NULL, false,
					false);
	case BPF_STX:
		size = bpf_size_to_bytes(BPF_SIZE(insn->code));
		/* load-acquire: dst = *(src + off), dst is only written */
		err = (BPF_MODE(insn->code) == BPF_ATOMIC && insn->imm == BPF_LOAD_ACQ ? 0 :
		       check_reg_read(env, st, i, insn->dst_reg)) ?:
		      check_reg_read(env, st, i, insn->src_reg);
		if (err)
			return err;
		if (BPF_MODE(insn->code) == BPF_ATOMIC) {
			struct bpf_reg_state val = fs->regs[insn->src_reg], res;
			u32 load_reg = insn->imm == BPF_CMPXCHG ? BPF_REG_0 :
				       insn->imm == BPF_LOAD_ACQ ? insn->dst_reg : insn->src_reg;
			bool loads = (insn->imm & BPF_FETCH) || insn->imm == BPF_LOAD_ACQ;

			if (insn->imm == BPF_CMPXCHG) {
				err = check_reg_read(env, st, i, BPF_REG_0);
				if (err)
					return err;
			}
			if (is_ptr(&val) && insn->imm != BPF_LOAD_ACQ) {
				vinsn(env, i, "R%u leaks addr into mem", insn->src_reg);
				return -EACCES;
			}
			if (loads) {
				err = check_reg_write(env, i, load_reg);
				if (err)
					return err;
			}
			err = check_mem_access(env, st, i,
					       insn->imm == BPF_LOAD_ACQ ? insn->src_reg : insn->dst_reg,
					       size, insn->imm != BPF_LOAD_ACQ, NULL, &res, false, true);
			if (err)
				return err;
			if (loads)
				mark_scalar(&fs->regs[load_reg]);
			return 0;
		}
		{
			struct bpf_reg_state val = fs->regs[insn->src_reg];

			return check_mem_access(env, st, i, insn->dst_reg, size, true, &val, NULL,
						false, false);
		}
	case BPF_LD: {
		struct bpf_insn_aux_data *aux = &env->aux[i];
		struct bpf_reg_state *dst = &fs->regs[insn->dst_reg];

		err = check_reg_write(env, i, insn->dst_reg);
		if (err)
			return err;
		memset(dst, 0, sizeof(*dst));
		dst->type = aux->ldimm_type;
		switch (aux->ldimm_type) {
		case SCALAR_VALUE:
			dst->off = (s64)((u64)(u32)insn[0].imm | ((u64)(u32)insn[1].imm << 32));
			break;
		case CONST_PTR_TO_MAP:
			dst->map = aux->map;
			break;
		case PTR_TO_MAP_VALUE:
			dst->map = aux->map;
			dst->off = aux->ldimm_off;
			break;
		}
		*next = i + 2;
		return 0;
	}
	case BPF_JMP:
	case BPF_JMP32: {
		u8 op = BPF_OP(insn->code);

		if (op == BPF_JA) {
			*next = jmp_target(insn, i);
			return 0;
		}
		if (op == BPF_EXIT)
			return check_exit(env, st, i, next);
		if (op == BPF_CALL) {
			if (insn->src_reg == BPF_PSEUDO_CALL) {
				u32 n;

				err = check_func_call(env, st, i, &n);
				*next = n;
				return err;
			}
			return check_helper_call(env, st, i);
		}
		*next = check_cond_jmp(env, st, i);
		return *next < 0 ? (int)*next : 0;
	}
	}
	vinsn(env, i, "unknown insn class %d", cls);
	return -EINVAL;
}

static int do_check(struct bpf_verifier_env *env)
{
	struct bpf_func_state *fs;
	struct bpf_verifier_state st;
	s64 next;
	u32 i;
	int err = 0;

	memset(&st, 0, sizeof(st));
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	st.frame[0] = fs;
	fs->callsite = UINT32_MAX;
	fs->regs[BPF_REG_10].type = PTR_TO_STACK;
	if (env->prog->type == BPF_PROG_TYPE_UNSPEC) {
		fs->regs[BPF_REG_1].type = PTR_TO_MEM;
		mark_scalar(&fs->regs[BPF_REG_2]);
	} else {
		fs->regs[BPF_REG_1].type = PTR_TO_CTX;
	}
	i = 0;
	for (;;) {
		if (++env->insn_processed > BPF_COMPLEXITY_LIMIT_INSNS) {
			bpf_verbose(env, "BPF program is too large. Processed %llu insn\n",
				(unsigned long long)env->insn_processed);
			err = -E2BIG;
			break;
		}
		if (env->aux[i].prune_point) {
			err = bpf_is_state_visited(env, &st, i);
			if (err < 0)
				break;
			if (err == 1)
				goto pop;
		}
		env->aux[i].seen = true;
		err = do_check_insn(env, &st, i, &next);
		if (err)
			break;
		if (next >= 0) {
			i = (u32)next;
			continue;
		}
pop:
		err = 0;
		bpf_free_vstate(&st);
		if (!env->work_cnt)
			return 0;
		env->work_cnt--;
		st = env->work[env->work_cnt].st;
		i = env->work[env->work_cnt].insn;
	}
	bpf_free_vstate(&st);
	return err;
}

static const struct bpf_func_proto *no_func_proto(enum bpf_func_id func_id)
{
	return NULL;
}

int bpf_check(struct bpf_prog **progp, char *log, u32 log_size)
{
	struct bpf_prog *prog = *progp;
	struct bpf_verifier_env *env;
	u32 i;
	int err;

	if (log && log_size)
		log[0] = '\0';
	env = calloc(1, sizeof(*env));
	if (!env)
		return -ENOMEM;
	env->prog = prog;
	env->log = log;
	env->log_size = log_size;
	/* this checker leaves accesses and loops to run-time checks */
	env->legacy_checks = true;
	if (!prog->len || prog->len > BPF_MAX_INSNS) {
		bpf_verbose(env, "program of %u insns: must be 1..%u\n", prog->len, BPF_MAX_INSNS);
		err = -E2BIG;
		goto out_free_env;
	}
	if (prog->type != BPF_PROG_TYPE_XDP && prog->type != BPF_PROG_TYPE_UNSPEC) {
		bpf_verbose(env, "program type %d is not supported\n", prog->type);
		err = -EINVAL;
		goto out_free_env;
	}
	env->get_proto = prog->aux->func_proto;
	if (!env->get_proto)
		env->get_proto = prog->type == BPF_PROG_TYPE_XDP ? xdp_func_proto : no_func_proto;
	env->aux = calloc(prog->len, sizeof(*env->aux));
	if (!env->aux) {
		err = -ENOMEM;
		goto out_free_env;
	}

	err = bpf_check_insns(env) ?: bpf_check_cfg(env) ?: bpf_compute_live_regs(env) ?:
	      do_check(env) ?: bpf_do_fixups(env);
	if (!err)
		err = bpf_prog_select_runtime(prog);

	while (env->work_cnt) {
		env->work_cnt--;
		bpf_free_vstate(&env->work[env->work_cnt].st);
	}
	free(env->work);
	for (i = 0; i < prog->len; i++) {
		struct bpf_verifier_state_list *sl = env->aux[i].states, *n;

		for (; sl; sl = n) {
			n = sl->next;
			bpf_free_vstate(&sl->st);
			free(sl);
		}
	}
	free(env->aux);
out_free_env:
	free(env);
	return err;
}
