# SPDX-License-Identifier: GPL-2.0
"""uxdp for Python: open XDP object files, run their programs as
BPF_PROG_TEST_RUN does, read and write their maps, collect bpf_printk()
lines and program coverage, without root or a kernel. ctypes over
libuxdp.so; see Documentation/libuxdp.rst.

    import uxdp
    with uxdp.Object("xdp1.o") as obj:
        res = obj.programs["xdp_prog1"].run(bytes(pkt))   # bytes or a scapy packet
        assert res.verdict == "XDP_DROP"
        print(obj.maps["rxcnt"].typed(key="u32", value="u64")[17])

Errors raise uxdp.Error (an OSError: .errno, and the library's message).
"""
import ctypes
import ctypes.util
import errno as _errno
import os
import struct as _struct
from contextlib import contextmanager

__all__ = ["Error", "Object", "Program", "Map", "RunResult", "trace_lines", "write_lcov",
           "version", "library_path", "XDP_ABORTED", "XDP_DROP", "XDP_PASS", "XDP_TX",
           "XDP_REDIRECT", "VERDICTS", "set_jit"]

XDP_ABORTED, XDP_DROP, XDP_PASS, XDP_TX, XDP_REDIRECT = range(5)
VERDICTS = ("XDP_ABORTED", "XDP_DROP", "XDP_PASS", "XDP_TX", "XDP_REDIRECT")
BPF_ANY, BPF_NOEXIST, BPF_EXIST = 0, 1, 2
BPF_MAP_TYPE_PERF_EVENT_ARRAY, BPF_MAP_TYPE_RINGBUF = 4, 27
_PERCPU_TYPES = {5, 6, 10}  # enum bpf_map_type: PERCPU_HASH, PERCPU_ARRAY, LRU_PERCPU_HASH

# ---- the library -------------------------------------------------------------


def _find_library():
    """$UXDP_LIB, else the libdir next to an installed package, else the system."""
    env = os.environ.get("UXDP_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _install  # written by meson install
        cand = os.path.normpath(os.path.join(here, _install.LIBDIR_FROM_PACKAGE, "libuxdp.so.0"))
        if os.path.exists(cand):
            return cand
    except ImportError:
        pass
    found = ctypes.util.find_library("uxdp")
    if found:
        return found
    raise ImportError("uxdp: libuxdp.so not found (set UXDP_LIB=/path/to/libuxdp.so)")


_path = _find_library()
_lib = ctypes.CDLL(_path, use_errno=True)
_u32, _u64, _size_t, _cp, _vp = (ctypes.c_uint32, ctypes.c_uint64, ctypes.c_size_t,
                                  ctypes.c_char_p, ctypes.c_void_p)


class _OpenOpts(ctypes.Structure):
    _fields_ = [("sz", _size_t), ("log_buf", _vp), ("log_size", _size_t),
                ("xdp_prog", _cp), ("xdp_sec", _cp), ("xdp_any", ctypes.c_bool),
                ("xdp_only", ctypes.c_bool), ("btf_custom_path", _cp)]


class _ProgDesc(ctypes.Structure):
    _fields_ = [("name", _cp), ("sec", _cp), ("id", _u32), ("insn_cnt", _u32),
                ("frags", ctypes.c_bool), ("nr_map_ids", _u32), ("map_ids", _u32 * 32),
                ("loaded", ctypes.c_bool), ("type", _cp), ("attach", _cp), ("not_loaded", _cp),
                ("verified_insns", _u32)]


class _MapDesc(ctypes.Structure):
    _fields_ = [("name", _cp), ("id", _u32), ("type", _u32), ("key_size", _u32),
                ("value_size", _u32), ("max_entries", _u32), ("map_flags", _u32),
                ("value_size_sys", _u32), ("nr_cpus", _u32), ("btf_key_type_id", _u32),
                ("btf_value_type_id", _u32)]


class _Redirect(ctypes.Structure):
    _fields_ = [("valid", ctypes.c_bool), ("ifindex", _u32), ("map_id", _u32),
                ("map_type", _u32), ("key", _u32), ("flags", _u32)]


class _TestRunOpts(ctypes.Structure):
    _fields_ = [("sz", _size_t), ("data_in", _vp), ("data_out", _vp), ("data_size_in", _u32),
                ("data_size_out", _u32), ("ctx_in", _vp), ("ctx_out", _vp), ("ctx_size_in", _u32),
                ("ctx_size_out", _u32), ("retval", _u32), ("repeat", _u32), ("duration", _u32),
                ("redirect", _Redirect)]


class _Line(ctypes.Structure):
    # struct uxdp_bpf_line (uxdp_bpf_cov.h), field for field: the library
    # writes all of it
    _fields_ = [("file", _cp), ("func", _cp), ("line", _u32), ("col", _u32),
                ("src", _cp), ("insn_off", _u32)]


def _proto(name, restype, *argtypes):
    f = getattr(_lib, name)
    f.restype, f.argtypes = restype, list(argtypes)
    return f


_c = ctypes.c_int
_open = _proto("uxdp_bpf_object_open", _vp, _cp, ctypes.POINTER(_OpenOpts))
_close = _proto("uxdp_bpf_object_close", None, _vp)
_prog_cnt = _proto("uxdp_bpf_object_prog_cnt", ctypes.c_uint, _vp)
_prog = _proto("uxdp_bpf_object_prog", _c, _vp, ctypes.c_uint, ctypes.POINTER(_ProgDesc))
_map_cnt = _proto("uxdp_bpf_object_map_cnt", ctypes.c_uint, _vp)
_map = _proto("uxdp_bpf_object_map", _c, _vp, ctypes.c_uint, ctypes.POINTER(_MapDesc))
_lookup = _proto("uxdp_bpf_map_lookup_elem", _c, _u32, _vp, _vp)
_update = _proto("uxdp_bpf_map_update_elem", _c, _u32, _vp, _vp, _u64)
_delete = _proto("uxdp_bpf_map_delete_elem", _c, _u32, _vp)
_next_key = _proto("uxdp_bpf_map_get_next_key", _c, _u32, _vp, _vp)
_test_run = _proto("uxdp_bpf_prog_test_run", _c, _u32, ctypes.POINTER(_TestRunOpts))
_jit_info = _proto("uxdp_bpf_prog_jit_info", _c, _u32, ctypes.POINTER(_u32), _cp, _size_t)
_jit_set = _proto("uxdp_bpf_jit_enable_set", _c, _c)
_trace_read = _proto("uxdp_bpf_trace_pipe_read", _size_t, _vp, _size_t)
_cov_enable = _proto("uxdp_bpf_prog_coverage_enable", _c, _u32)
_cov_disable = _proto("uxdp_bpf_prog_coverage_disable", _c, _u32)
_cov_get = _proto("uxdp_bpf_prog_coverage_get", _c, _u32, _vp, _vp, _u32)
_line_info = _proto("uxdp_bpf_prog_line_info", _c, _u32, _u32, ctypes.POINTER(_Line))
_write_lcov = _proto("uxdp_bpf_coverage_write_lcov", _c, _cp, ctypes.POINTER(_u32),
                     ctypes.c_uint, _cp)
_record_fn = ctypes.CFUNCTYPE(_c, _vp, _c, _vp, _u32)
_perf_consume = _proto("uxdp_bpf_perf_event_consume", _c, _u32, _record_fn, _vp)
_ringbuf_consume = _proto("uxdp_bpf_ringbuf_consume", _c, _u32, _record_fn, _vp)
_errmsg = _proto("uxdp_errmsg", _cp)
_strerror = _proto("uxdp_strerror", _c, _c, _cp, _size_t)
_version = _proto("uxdp_version", _cp)
_set_print = _proto("uxdp_set_print", _vp, _vp)
# Messages become exceptions (uxdp_errmsg()); the library stays quiet.
_set_print(None)


def version():
    """The library's version string."""
    return _version().decode()


def library_path():
    """Where the loaded libuxdp.so is."""
    return _path


class Error(OSError):
    """A library call failed: .errno is the errno, str() the library's message."""

    def __init__(self, err, what, log=None):
        buf = ctypes.create_string_buffer(128)
        _strerror(-abs(err), buf, len(buf))
        msg = _errmsg().decode(errors="replace")
        super().__init__(abs(err), f"{what}: {msg or buf.value.decode()}")
        self.log = log


def _check(ret, what):
    if ret < 0:
        raise Error(ret, what)
    return ret


def _s(b):
    return b.decode() if b else None


def set_jit(on):
    """net.core.bpf_jit_enable for programs loaded from now on."""
    _check(_jit_set(1 if on else 0), "bpf_jit_enable")


def trace_lines():
    """The bpf_printk() lines the programs run by this thread wrote since the last call."""
    buf = ctypes.create_string_buffer(65536)
    out = b""
    while True:
        n = _check(_trace_read(buf, len(buf)), "trace_pipe")
        if not n:
            break
        out += buf.raw[:n]
    return [line for line in out.decode(errors="replace").split("\n") if line]


def write_lcov(path, programs, test_name=None):
    """Write the coverage of @programs (Program objects or ids) as an lcov tracefile."""
    ids = [p.id if isinstance(p, Program) else int(p) for p in programs]
    arr = (_u32 * len(ids))(*ids)
    _check(_write_lcov(os.fsencode(path), arr, len(ids),
                       test_name.encode() if test_name else None), "coverage " + str(path))


# ---- values ------------------------------------------------------------------

_INT_FORMATS = {"u8": "<B", "u16": "<H", "u32": "<I", "u64": "<Q",
                "s8": "<b", "s16": "<h", "s32": "<i", "s64": "<q",
                "be16": ">H", "be32": ">I", "be64": ">Q"}


def _packer(fmt, size):
    """(pack, unpack) for a map key or value of @size bytes.

    fmt: None (bytes as they are; an int is packed little-endian), "int"
    (unsigned little-endian of the full size), a name of _INT_FORMATS, a
    struct format ("<IH": several fields, unpacked to a tuple), or a
    ctypes.Structure subclass.
    """
    if isinstance(fmt, type) and issubclass(fmt, ctypes.Structure):
        if ctypes.sizeof(fmt) != size:
            raise ValueError(f"{fmt.__name__} is {ctypes.sizeof(fmt)} bytes, the map wants {size}")
        return (lambda v: bytes(v) if isinstance(v, fmt) else _raw(v, size),
                lambda b: fmt.from_buffer_copy(b))
    if fmt is None:
        return (lambda v: _raw(v, size)), (lambda b: b)
    if fmt == "int":
        return ((lambda v: _raw(v, size)),
                (lambda b: int.from_bytes(b, "little")))
    st = _struct.Struct(_INT_FORMATS.get(fmt, fmt))
    if st.size != size:
        raise ValueError(f"format {fmt!r} is {st.size} bytes, the map wants {size}")
    single = len(st.unpack(bytes(size))) == 1

    def pack(v):
        if isinstance(v, (bytes, bytearray)):
            return _raw(v, size)
        return st.pack(v) if single else st.pack(*v)

    return pack, (lambda b: st.unpack(b)[0] if single else st.unpack(b))


def _raw(v, size):
    if isinstance(v, int):
        return v.to_bytes(size, "little", signed=v < 0)
    if isinstance(v, ctypes.Structure):
        v = bytes(v)
    v = bytes(v)
    if len(v) != size:
        raise ValueError(f"{len(v)} bytes where the map wants {size}")
    return v


# ---- maps ----------------------------------------------------------------------


class Map:
    """A map of an object, dict-like: m[key], m[key] = value, del m[key], in, len, iteration.

    Keys and values are bytes (ints are packed little-endian to the size)
    unless typed(): m.typed(key="u32", value="u64"). A per-CPU map's value
    reads as a list, one entry per CPU; assigning one value sets every CPU.
    """

    def __init__(self, obj, desc, key=None, value=None):
        self._obj = obj
        self.name = desc.name.decode()
        self.id = desc.id
        self.type = desc.type
        self.key_size = desc.key_size
        self.value_size = desc.value_size
        self.max_entries = desc.max_entries
        self.flags = desc.map_flags
        self.nr_cpus = desc.nr_cpus
        self._sys_size = desc.value_size_sys
        self._desc = desc
        self._kpack, self._kunpack = _packer(key, self.key_size)
        self._vpack, self._vunpack = _packer(value, self.value_size)

    def records(self):
        """Take the records programs wrote to this PERF_EVENT_ARRAY
        (bpf_perf_event_output(); a CPU's slot takes records once it was
        updated with any value, where a kernel user installs a perf event
        fd) or RINGBUF (bpf_ringbuf_submit/output()): a list of
        (cpu, bytes), oldest first; what is read is gone."""
        self._obj._alive()
        out = []

        def take(_ctx, cpu, data, size):
            out.append((cpu, ctypes.string_at(data, size)))
            return 0

        cb = _record_fn(take)
        if self.type == BPF_MAP_TYPE_PERF_EVENT_ARRAY:
            ret = _perf_consume(self.id, cb, None)
        elif self.type == BPF_MAP_TYPE_RINGBUF:
            ret = _ringbuf_consume(self.id, cb, None)
        else:
            raise Error(_errno.EINVAL, f"map {self.name}: not a PERF_EVENT_ARRAY or RINGBUF")
        _check(ret, f"map {self.name}: records")
        return out

    def typed(self, key=None, value=None):
        """A view of the same map with its own key and value formats."""
        return Map(self._obj, self._desc, key, value)

    @property
    def percpu(self):
        return self.type in _PERCPU_TYPES

    def _stride(self):
        return (self.value_size + 7) & ~7

    def _key(self, key):
        return ctypes.create_string_buffer(self._kpack(key), self.key_size)

    def lookup(self, key):
        """The value, or None when there is no element."""
        self._obj._alive()
        buf = ctypes.create_string_buffer(max(self._sys_size, self.value_size) + 8)
        ret = _lookup(self.id, self._key(key), buf)
        if ret == -_errno.ENOENT:
            return None
        _check(ret, f"map {self.name}: lookup")
        if self.percpu:
            s = self._stride()
            return [self._vunpack(buf.raw[i * s:i * s + self.value_size])
                    for i in range(self.nr_cpus)]
        return self._vunpack(buf.raw[:min(self._sys_size, self.value_size)])

    def update(self, key, value, flags=BPF_ANY):
        """Set @key to @value (a PROG_ARRAY slot also takes a Program)."""
        self._obj._alive()
        if isinstance(value, Program):
            value = value.id
        if self.percpu:
            s = self._stride()
            vals = value if isinstance(value, list) else [value] * self.nr_cpus
            if len(vals) != self.nr_cpus:
                raise ValueError(f"map {self.name}: {len(vals)} values for {self.nr_cpus} CPUs")
            raw = b"".join(self._vpack(v).ljust(s, b"\0") for v in vals)
        else:
            raw = self._vpack(value)
        _check(_update(self.id, self._key(key), ctypes.create_string_buffer(raw, len(raw)),
                       flags), f"map {self.name}: update")

    def delete(self, key):
        self._obj._alive()
        _check(_delete(self.id, self._key(key)), f"map {self.name}: delete")

    def keys(self):
        self._obj._alive()
        cur, nxt = None, ctypes.create_string_buffer(self.key_size)
        while True:
            ret = _next_key(self.id, cur, nxt)
            if ret == -_errno.ENOENT:
                return
            _check(ret, f"map {self.name}: get_next_key")
            raw = nxt.raw[:self.key_size]
            yield self._kunpack(raw)
            cur = ctypes.create_string_buffer(raw, self.key_size)

    def items(self):
        for k in self.keys():
            v = self.lookup(k)
            if v is not None:
                yield k, v

    def values(self):
        return (v for _, v in self.items())

    def get(self, key, default=None):
        v = self.lookup(key)
        return default if v is None else v

    def sum(self, key):
        """A per-CPU integer value added up over the CPUs (0 when absent)."""
        v = self.lookup(key)
        return 0 if v is None else sum(v) if isinstance(v, list) else v

    def __getitem__(self, key):
        v = self.lookup(key)
        if v is None:
            raise KeyError(key)
        return v

    def __setitem__(self, key, value):
        self.update(key, value)

    def __delitem__(self, key):
        try:
            self.delete(key)
        except Error as e:
            if e.errno == _errno.ENOENT:
                raise KeyError(key) from None
            raise

    def __contains__(self, key):
        return self.lookup(key) is not None

    def __iter__(self):
        return self.keys()

    def __len__(self):
        return sum(1 for _ in self.keys())

    def __repr__(self):
        return f"<uxdp.Map {self.name} id {self.id} key {self.key_size}B value {self.value_size}B>"


# ---- programs ------------------------------------------------------------------


class RunResult:
    """What one prog test run returned."""

    def __init__(self, opts, data, ctx):
        self.retval = opts.retval
        self.verdict = VERDICTS[self.retval] if self.retval < len(VERDICTS) else str(self.retval)
        self.data = data
        self.ctx = ctx
        self.duration = opts.duration
        r = opts.redirect
        self.redirect = ({"ifindex": r.ifindex, "map_id": r.map_id, "map_type": r.map_type,
                          "key": r.key, "flags": r.flags} if r.valid else None)

    def __repr__(self):
        return f"<uxdp.RunResult {self.verdict} data {len(self.data)}B {self.duration} ns>"


class Program:
    """A loaded program of an object."""

    def __init__(self, obj, desc):
        self._obj = obj
        self.name = desc.name.decode()
        self.sec = desc.sec.decode()
        self.id = desc.id
        self.insn_cnt = desc.insn_cnt
        self.frags = desc.frags

    @property
    def jited(self):
        ln = _u32()
        return _check(_jit_info(self.id, ctypes.byref(ln), None, 0), "jit_info") == 1

    def run(self, data, repeat=1, ctx=None, data_size_out=None):
        """BPF_PROG_TEST_RUN over @data (bytes, or anything bytes() takes: a scapy packet).

        @ctx: a struct xdp_md as bytes (24). Returns a RunResult: verdict,
        retval, data (the frame after the program), ctx, duration (ns per
        run, average over @repeat), redirect.
        """
        self._obj._alive()
        raw = bytes(data)
        size_out = data_size_out if data_size_out is not None else max(len(raw) + 4096, 8192)
        opts = _TestRunOpts(sz=ctypes.sizeof(_TestRunOpts))
        inp = ctypes.create_string_buffer(raw, len(raw))
        out = ctypes.create_string_buffer(max(size_out, 1))
        opts.data_in = ctypes.cast(inp, _vp)
        opts.data_size_in = len(raw)
        opts.data_out = ctypes.cast(out, _vp)
        opts.data_size_out = size_out
        opts.repeat = repeat
        ctx_out = None
        if ctx is not None:
            cin = ctypes.create_string_buffer(bytes(ctx), len(bytes(ctx)))
            ctx_out = ctypes.create_string_buffer(24)
            opts.ctx_in, opts.ctx_size_in = ctypes.cast(cin, _vp), len(bytes(ctx))
            opts.ctx_out, opts.ctx_size_out = ctypes.cast(ctx_out, _vp), 24
        _check(_test_run(self.id, ctypes.byref(opts)), f"prog {self.name}: test run")
        return RunResult(opts, out.raw[:opts.data_size_out],
                         ctx_out.raw[:opts.ctx_size_out] if ctx_out is not None else None)

    # -- coverage

    def coverage_enable(self):
        """Count what runs execute from now on (counters reset; runs on the interpreter)."""
        _check(_cov_enable(self.id), f"prog {self.name}: coverage")

    def coverage_disable(self):
        _check(_cov_disable(self.id), f"prog {self.name}: coverage")

    @contextmanager
    def coverage(self):
        """with prog.coverage(): ... counts the runs inside the block."""
        self.coverage_enable()
        try:
            yield self
        finally:
            self.coverage_disable()

    def coverage_counts(self):
        """(counts per instruction slot, branch counts [fall-through, taken] per slot)."""
        n = _check(_cov_get(self.id, None, None, 0), f"prog {self.name}: coverage")
        cnt, br = (_u64 * n)(), (_u64 * (2 * n))()
        _check(_cov_get(self.id, cnt, br, n), f"prog {self.name}: coverage")
        return list(cnt), [(br[2 * i], br[2 * i + 1]) for i in range(n)]

    def line_info(self, insn):
        """(file, function, line, column) of instruction slot @insn, or None."""
        li = _Line()
        ret = _line_info(self.id, insn, ctypes.byref(li))
        if ret == -_errno.ENODATA:
            return None
        _check(ret, f"prog {self.name}: line info")
        return (_s(li.file), _s(li.func), li.line, li.col)

    def lines_hit(self):
        """{(file, line): hits} over the slots that have a source line."""
        counts, _ = self.coverage_counts()
        out = {}
        for i, c in enumerate(counts):
            li = self.line_info(i)
            if li and li[2]:
                key = (li[0], li[2])
                out[key] = max(out.get(key, 0), c)
        return out

    def __repr__(self):
        return f"<uxdp.Program {self.name} sec {self.sec} id {self.id} insns {self.insn_cnt}>"


# ---- objects -------------------------------------------------------------------


class Object:
    """An XDP object file, opened and loaded (verified); close() or use `with`.

    Object(path, prog=None, sec=None, any_xdp=False, btf=None): @prog/@sec
    also load a program of a section libbpf does not know as XDP, @any_xdp
    all of them; @btf is the CO-RE target. A program the checker rejects
    raises Error with .log holding the checker's log.
    """

    def __init__(self, path, prog=None, sec=None, any_xdp=False, btf=None):
        self.path = os.fspath(path)
        log = ctypes.create_string_buffer(1 << 16)
        opts = _OpenOpts(sz=ctypes.sizeof(_OpenOpts), log_buf=ctypes.cast(log, _vp),
                         log_size=len(log), xdp_prog=prog.encode() if prog else None,
                         xdp_sec=sec.encode() if sec else None, xdp_any=any_xdp,
                         btf_custom_path=os.fsencode(btf) if btf else None)
        self._h = _open(os.fsencode(self.path), ctypes.byref(opts))
        if not self._h:
            err = ctypes.get_errno() or _errno.EINVAL
            text = log.value.decode(errors="replace")
            e = Error(err, self.path, log=text)
            if text:
                e.strerror = text
            raise e
        self.programs = {}
        self.not_loaded = {}
        for i in range(_prog_cnt(self._h)):
            d = _ProgDesc()
            _check(_prog(self._h, i, ctypes.byref(d)), "object prog")
            if d.loaded:
                self.programs[d.name.decode()] = Program(self, d)
            else:
                self.not_loaded[d.name.decode()] = _s(d.not_loaded)
        self.maps = {}
        for i in range(_map_cnt(self._h)):
            d = _MapDesc()
            _check(_map(self._h, i, ctypes.byref(d)), "object map")
            self.maps[d.name.decode()] = Map(self, d)

    def _alive(self):
        if not self._h:
            raise Error(_errno.EBADF, f"{self.path}: object is closed")

    @property
    def program(self):
        """The only (or first) loaded program."""
        return next(iter(self.programs.values()))

    def close(self):
        if self._h:
            _close(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self):
        return f"<uxdp.Object {self.path} programs {list(self.programs)} maps {list(self.maps)}>"
