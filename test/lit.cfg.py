# -*- Python -*- lit configuration for Tessel: FileCheck tests of the tile IR, passes, lowerings,
# the DSL and the tools. Built tools come first on PATH, then LLVM 19's FileCheck/not/split-file.
import os

import lit.formats
import lit.util
from lit.llvm import llvm_config

config.name = "Tessel"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .cpp: DSL kernel files (test/dsl, test/tools/tesselc); test/Unit and test/lib (test passes
# linked into tessel-opt) stay excluded.
config.suffixes = [".mlir", ".test", ".cpp"]
config.excludes = ["Unit", "lib", "Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tessel_obj_root, "test")

llvm_config.with_system_environment(["HOME", "TMPDIR"])
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tessel_tools_dir, append_path=True)

tools = ["tessel-opt", "tesselc", "tessel-translate", "tessel-run", "tessel-run-gpu",
         "tessel-tune", "tessel-tune-gpu",
         "tessel-fuzz-tileir-replay", "tessel-fuzz-gpupipeline-replay",
         "tessel-fuzz-runargs-replay"]
llvm_config.add_tool_substitutions(tools, [config.tessel_tools_dir])
config.substitutions.append(("%tessel_src", config.tessel_src_root))
config.substitutions.append(("%tessel_tools", config.tessel_tools_dir))

# Kernel files compiled by tesselc share one generator cache under the build tree, so a second
# run of the suite reuses them; tests of the cache itself set their own TESSEL_CACHE_DIR.
config.environment["TESSEL_CACHE_DIR"] = os.path.join(config.tessel_obj_root, "test", "tessel-cache")
config.environment.pop("TESSEL_ALWAYS_COMPILE", None)
# Every compile in the suite verifies the IR after each pass (tesselc verifies once per
# pipeline otherwise, for speed): a pass that leaves invalid IR fails where it ran.
config.environment["TESSEL_VERIFY_EACH"] = "1"

# Tests that assemble cubins need CUDA's ptxas (TESSEL_PTXAS, CUDA_HOME or /usr/local/cuda).
import shutil
cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
ptxas = os.environ.get("TESSEL_PTXAS") or (
    os.path.join(cuda_home, "bin", "ptxas") if os.path.exists(os.path.join(cuda_home, "bin", "ptxas"))
    else shutil.which("ptxas"))
if ptxas:
    config.available_features.add("ptxas")
# Tests of the "no AMD driver" message need a machine without the HIP runtime.
import ctypes.util
if os.environ.get("TESSEL_HIP_RUNTIME") or ctypes.util.find_library("amdhip64"):
    config.available_features.add("hip-runtime")
# Kernels whose math calls libdevice need it at --emit=llvm/ptx/cubin.
libdevice = os.environ.get("TESSEL_LIBDEVICE") or os.path.join(cuda_home, "nvvm", "libdevice", "libdevice.10.bc")
if os.path.exists(libdevice):
    config.available_features.add("libdevice")
# The format check (scripts/setup.sh installs clang-format-19; the check needs a git checkout).
if shutil.which("clang-format-19") and os.path.exists(os.path.join(config.tessel_src_root, ".git")):
    config.available_features.add("clang-format")
for var in ["CUDA_HOME", "TESSEL_PTXAS", "TESSEL_LIBDEVICE"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]

# Kernel templates in test/kernels/Inputs: ELT is the element type, EXT/TRUNC its casts to and
# from f32, BLK the block size. `%inst-bf16 BLK=128 < template > kernel.mlir` instantiates one.
for dt, ext, trunc in [("f32", "arith.bitcast", "arith.bitcast"),
                       ("f16", "arith.extf", "arith.truncf"),
                       ("bf16", "arith.extf", "arith.truncf")]:
    config.substitutions.append(
        ("%inst-" + dt,
         "sh %s/test/kernels/instantiate.sh %s %s %s" % (config.tessel_src_root, dt, ext, trunc)))

# The executables link LLVM and MLIR's static archives (CMakeLists.txt, TESSEL_STATIC_LLVM).
if lit.util.pythonize_bool(config.tessel_static_llvm):
    config.available_features.add("static-llvm")

# tesselc (the DSL's compiler driver) runs the dsl/kernels tests when it is part of the build.
if os.path.exists(os.path.join(config.tessel_tools_dir, "tesselc")):
    config.available_features.add("tesselc")

# The Python package's tests (test/python): a python3 that has NumPy (this one, else the
# system's, where setup.sh installs python3-numpy), with the build's package on PYTHONPATH.
import subprocess
import sys
python_numpy = None
for exe in (sys.executable, "/usr/bin/python3"):
    if os.path.exists(exe) and subprocess.run([exe, "-c", "import numpy"],
                                              capture_output=True).returncode == 0:
        python_numpy = exe
        break
if python_numpy:
    config.available_features.add("python-numpy")
    config.substitutions.append(("%tessel_python", python_numpy))
config.environment["PYTHONPATH"] = os.path.join(config.tessel_obj_root, "python")
