#include "analysis/rules/catalogue/rule_catalogue.h"

#include <string.h>

#define GM_GB_URL(n) "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb" n ".html"

/* In id order; gm_rule_by_id relies on nothing but the ids being unique. */
static const gm_rule rules[] = {
    {
        .id = "GM001",
        .name = "syntax-error",
        .registry_id = NULL,
        .gb_type = NULL,
        .url = NULL,
        .summary = "The file does not parse as Python",
        .explanation =
            "The parser could not read part of the file. Graph-break analysis runs on the "
            "parts that parse, so findings near the error may be missing.",
        .hint = "Fix the syntax error; the findings update as you type.",
        .severity = GM_SEVERITY_ERROR,
    },
    {
        .id = "GM101",
        .name = "data-dependent-branch",
        .registry_id = "GB0170",
        .gb_type = "Data-dependent branching",
        .url = GM_GB_URL("0170"),
        .summary = "Branch on a tensor value inside a compiled region",
        .explanation = "Which way an `if`/`while` goes depends on the data in a tensor, which "
                       "TorchDynamo does not know while tracing. It ends the graph before the "
                       "branch, runs the branch in Python and traces what follows as a new graph.",
        .hint = "Express the choice with tensor operations (torch.where(cond, a, b)) or with "
                "torch.cond(pred, true_fn, false_fn, operands); branch on shapes, dtypes or Python "
                "values rather than tensor data.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM103",
        .name = "data-dependent-guard",
        .registry_id = "GB0170",
        .gb_type = "Data-dependent branching",
        .url = GM_GB_URL("0170"),
        .summary = "Validation guard `if not <tensor>: raise` inside a compiled region",
        .explanation = "`if not <tensor condition>: raise ...` checks tensor data, which "
                       "TorchDynamo does not know while tracing. It ends the graph before the "
                       "check, runs it in Python and traces what follows as a new graph.",
        .hint = "Check the condition with torch._assert_async(cond, \"message\") (or a plain "
                "`assert cond, \"message\"`, which dynamo rewrites to it), or move the check "
                "out of the compiled code.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM104",
        .name = "tensor-not",
        .registry_id = "GB0033",
        .gb_type = "Data dependent operator",
        .url = GM_GB_URL("0033"),
        .summary = "`not` on a tensor used as a value inside a compiled region",
        .explanation = "`not t` outside an if/while test turns tensor data into a Python bool "
                       "(aten._local_scalar_dense), which TorchDynamo does not know while "
                       "tracing. On torch 2.13 it cannot resume after this break, so it skips "
                       "the function and runs all of it eagerly.",
        .hint = "Keep the value a tensor: use torch.logical_not(t) or `~t` on a bool tensor, "
                "and branch with torch.where or torch.cond.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM201",
        .name = "tensor-item",
        .registry_id = "GB0124",
        .gb_type = "Unsupported Tensor.item() call with capture_scalar_outputs=False",
        .url = GM_GB_URL("0124"),
        .summary = "Tensor.item() inside a compiled region",
        .explanation = "`.item()` turns a tensor's data into a Python number, which TorchDynamo "
                       "does not know while tracing unless scalar outputs are captured. With "
                       "torch._dynamo.config.capture_scalar_outputs off (the default) it ends the "
                       "graph before the call, runs it in Python and traces what follows as a "
                       "new graph.",
        .hint = "Keep the value a tensor (use the 0-d tensor directly in tensor operations), "
                "move the conversion out of the compiled code, or set "
                "`torch._dynamo.config.capture_scalar_outputs = True` "
                "(TORCHDYNAMO_CAPTURE_SCALAR_OUTPUTS=1).",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM202",
        .name = "tensor-to-python",
        .registry_id = "GB0124",
        .gb_type = "Unsupported Tensor.item() call with capture_scalar_outputs=False",
        .url = GM_GB_URL("0124"),
        .summary = "int()/float()/bool() of a tensor or Tensor.tolist() inside a compiled region",
        .explanation = "Converting tensor data to Python values needs the data, which TorchDynamo "
                       "does not have while tracing. On torch 2.13 `int(t)`, `float(t)` and "
                       "`bool(t)` go through Tensor.item() (GB0124); `t.tolist()` reports GB0109 "
                       "\"Tensor.tolist() with non-integer tensor\" on floating tensors and "
                       "GB0033 \"Data dependent operator\" on integer ones. Dynamo ends the graph "
                       "before the call and traces what follows as a new graph.",
        .hint = "Keep the value a tensor (torch.where, tensor arithmetic, .to(dtype)), move the "
                "conversion out of the compiled code, or, for integer data, set "
                "`torch._dynamo.config.capture_scalar_outputs = True`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM301",
        .name = "dynamic-shape-op",
        .registry_id = "GB0036",
        .gb_type = "Dynamic shape operator",
        .url = GM_GB_URL("0036"),
        .summary = "Operator with a data-dependent output shape inside a compiled region",
        .explanation = "nonzero, argwhere, unique, masked_select, bincount, one-argument "
                       "torch.where, repeat_interleave with tensor repeats and no output_size, and "
                       "boolean-mask indexing `x[mask]` return tensors whose size depends on the "
                       "data. With torch._dynamo.config.capture_dynamic_output_shape_ops off (the "
                       "default) TorchDynamo ends the graph before the operator, runs it in Python "
                       "and traces what follows as a new graph.",
        .hint = "Keep shapes static (torch.where(cond, x, 0) instead of x[cond], pass "
                "output_size to repeat_interleave), move the operator out of the compiled code, or "
                "set `torch._dynamo.config.capture_dynamic_output_shape_ops = True`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM302",
        .name = "one-hot-no-num-classes",
        .registry_id = "GB0246",
        .gb_type = "Attempted to use `torch.nn.functional.one_hot` with data-dependent output "
                   "shape",
        .url = GM_GB_URL("0246"),
        .summary = "one_hot() without num_classes inside a compiled region",
        .explanation = "Without num_classes, one_hot reads the number of classes from the largest "
                       "value in the tensor, so its output shape depends on the data. TorchDynamo "
                       "ends the graph before the call, runs it in Python and traces what follows "
                       "as a new graph.",
        .hint = "Pass num_classes explicitly: F.one_hot(t, num_classes=N).",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM401",
        .name = "print-call",
        .registry_id = "GB0059",
        .gb_type = "Failed to trace builtin operator",
        .url = GM_GB_URL("0059"),
        .summary = "print() inside a compiled region",
        .explanation = "TorchDynamo has no handler for the builtin print, so it ends the graph, "
                       "runs print in Python and traces what follows as a new graph.",
        .hint = "Remove the print, run it only in eager mode under "
                "`if not torch.compiler.is_compiling():`, or add print to "
                "torch._dynamo.config.reorderable_logging_functions (tensor and constant "
                "arguments only).",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM402",
        .name = "logger-call",
        .registry_id = "GB0291",
        .gb_type = "logging.Logger method not supported for non-export cases",
        .url = GM_GB_URL("0291"),
        .summary = "logging call inside a compiled region",
        .explanation = "TorchDynamo does not trace logging.Logger methods (debug, info, warning, "
                       "error, exception, critical, log) outside torch.export: it ends the graph, "
                       "runs the call in Python and traces what follows as a new graph. "
                       "Module-level functions such as `logging.info(...)` break too (torch 2.13 "
                       "reports them as GB4841 \"Unsupported python_type() call\").",
        .hint = "Remove the call, run it only in eager mode under "
                "`if not torch.compiler.is_compiling():`, or add the method to "
                "`torch._dynamo.config.ignore_logging_functions` (e.g. logging.Logger.info; the "
                "call is then skipped under compile).",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM403",
        .name = "warnings-warn",
        .registry_id = "GB0007",
        .gb_type = "Attempted to call function marked as skipped",
        .url = GM_GB_URL("0007"),
        .summary = "warnings.warn() inside a compiled region",
        .explanation = "warnings.warn is the C builtin `_warnings.warn`, which TorchDynamo does "
                       "not know how to trace: it ends the graph, runs the call in Python and "
                       "traces what follows as a new graph.",
        .hint = "Warn outside the compiled code, run it only in eager mode under "
                "`if not torch.compiler.is_compiling():`, or add warnings.warn to "
                "torch._dynamo.config.reorderable_logging_functions.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM501",
        .name = "untraceable-call",
        .registry_id = "GB0007",
        .gb_type = "Attempted to call function marked as skipped",
        .url = GM_GB_URL("0007"),
        .summary = "Call of a function TorchDynamo skips inside a compiled region",
        .explanation = "Every `time` function (time, perf_counter, monotonic, sleep, strftime, "
                       "...), the `os`/`os.path` functions that ask the system (getpid, getcwd, "
                       "listdir, makedirs, stat, path.exists/isfile/isdir/abspath/realpath/"
                       "normpath, ...), pickle.dumps/loads/dump/load, torch.save/torch.load, "
                       "re.finditer, threading (Lock, Thread, current_thread, ...), "
                       "the random module's functions (random, seed, choice, sample, shuffle, "
                       "gauss, ...; not randint, uniform and randrange, which it traces), "
                       "torch.manual_seed and torch.get_rng_state/"
                       "set_rng_state are C builtins or functions TorchDynamo marks as skipped: "
                       "it ends the graph, runs the call in Python and traces what follows as a "
                       "new graph. String helpers such as os.path.join/basename/splitext, "
                       "os.getenv and re.match/sub/compile are traced. A few threading calls "
                       "report another registry id on torch 2.13 (RLock/Condition GB0156, "
                       "active_count/enumerate GB0142, local GB0147).",
        .hint = "Move the call out of the compiled code (pass its result in as an argument), or "
                "run it only in eager mode under `if not torch.compiler.is_compiling():`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM502",
        .name = "graph-break-call",
        .registry_id = "GB0025",
        .gb_type = "Call to `torch._dynamo.graph_break()`",
        .url = GM_GB_URL("0025"),
        .summary = "torch._dynamo.graph_break() inside a compiled region",
        .explanation = "torch._dynamo.graph_break() asks TorchDynamo to end the graph here: the "
                       "code before and after runs as separate graphs.",
        .hint = "Remove the call unless the break is intended.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM503",
        .name = "open-call",
        .registry_id = "GB0059",
        .gb_type = "Failed to trace builtin operator",
        .url = GM_GB_URL("0059"),
        .summary = "open() inside a compiled region",
        .explanation = "TorchDynamo has no handler for the builtin open, so it ends the graph, "
                       "runs the call in Python and traces what follows as a new graph.",
        .hint = "Do file I/O outside the compiled code and pass the data in, or run it only in "
                "eager mode under `if not torch.compiler.is_compiling():`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM504",
        .name = "input-call",
        .registry_id = "GB0059",
        .gb_type = "Failed to trace builtin operator",
        .url = GM_GB_URL("0059"),
        .summary = "input() inside a compiled region",
        .explanation = "TorchDynamo has no handler for the builtin input, so it ends the graph, "
                       "runs the call in Python and traces what follows as a new graph.",
        .hint = "Read input outside the compiled code and pass the value in.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM505",
        .name = "json-call",
        .registry_id = "GB0156",
        .gb_type = "Unsupported method call",
        .url = GM_GB_URL("0156"),
        .summary = "json.dumps/loads/dump/load inside a compiled region",
        .explanation = "TorchDynamo inlines the json module but cannot trace the encoder and "
                       "decoder objects it builds (\"Dynamo does not know how to trace method "
                       "`__new__` of class `type`\"): it ends the graph, runs the call in Python "
                       "and traces what follows as a new graph.",
        .hint = "Serialise outside the compiled code and pass the result in, or run it only in "
                "eager mode under `if not torch.compiler.is_compiling():`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM506",
        .name = "deepcopy-tensor",
        .registry_id = "GB4198",
        .gb_type = "Attempted to copy.deepcopy a tensor",
        .url = GM_GB_URL("4198"),
        .summary = "copy.deepcopy() of a tensor inside a compiled region",
        .explanation = "TorchDynamo does not support copy.deepcopy() on tensors (or on lists, "
                       "tuples and dicts that hold them): it ends the graph, runs the copy in "
                       "Python and traces what follows as a new graph. Deep copies of constants "
                       "are traced.",
        .hint = "Use t.clone() (or t.detach().clone()) for tensors, or copy outside the "
                "compiled code.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM507",
        .name = "disabled-function-call",
        .registry_id = "GB0098",
        .gb_type = "Skip calling `torch.compiler.disable()`d function",
        .url = GM_GB_URL("0098"),
        .summary = "Call of a torch.compiler.disable'd function inside a compiled region",
        .explanation = "A function wrapped by torch.compiler.disable (or torch._dynamo.disable) "
                       "is never traced: calling it from compiled code ends the graph, runs the "
                       "function eagerly and traces what follows as a new graph. With "
                       "recursive=False torch 2.13 reports GB0099.",
        .hint = "Intended when the function really cannot be compiled. Otherwise drop the "
                "decorator, or move the call to the start or end of the compiled code so the "
                "graph is not split in the middle.",
        .severity = GM_SEVERITY_INFORMATION,
    },
    {
        .id = "GM508",
        .name = "generator-method",
        .registry_id = "GB7650",
        .gb_type = "torch.Generator method",
        .url = GM_GB_URL("7650"),
        .summary = "torch.Generator method call inside a compiled region",
        .explanation = "manual_seed, seed, get_state, set_state and the other torch.Generator "
                       "methods are stateful RNG operations that cannot be soundly traced into "
                       "the graph: TorchDynamo ends the graph, runs the call in Python and "
                       "traces what follows as a new graph.",
        .hint = "Seed or save the generator's state outside the compiled code.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM509",
        .name = "generator-in-region",
        .registry_id = "GB0363",
        .gb_type = "An opaque object was created in the middle of the program.",
        .url = GM_GB_URL("0363"),
        .summary = "torch.Generator() created inside a compiled region",
        .explanation = "A torch.Generator is an opaque object, which cannot be created inside "
                       "the compiled region: TorchDynamo ends the graph, creates it in Python and "
                       "traces what follows as a new graph.",
        .hint = "Create the generator before entering the compiled function and pass it in.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM510",
        .name = "third-party-call",
        .registry_id = "GB0007",
        .gb_type = "Attempted to call function marked as skipped",
        .url = GM_GB_URL("0007"),
        .summary = "Call into a third-party module TorchDynamo skips inside a compiled region",
        .explanation = "TorchDynamo never traces modules on its third-party skip list (tqdm, "
                       "pandas, sklearn, networkx, onnx, tensorflow, tabulate, ...): a call into "
                       "one ends the graph, runs in Python and what follows is traced as a new "
                       "graph. Looping over such an object (`for i in tqdm(...)`) cannot be "
                       "traced either (GB0008), and torch 2.13 then runs the whole function "
                       "eagerly.",
        .hint = "Call the library outside the compiled code (wrap the progress bar around the "
                "call of the compiled step), wrap it in a torch.library.custom_op, or run it "
                "only in eager mode under `if not torch.compiler.is_compiling():`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM511",
        .name = "numpy-unsupported-call",
        .registry_id = "GB0294",
        .gb_type = "attempted to trace numpy function unsupported by PyTorch",
        .url = GM_GB_URL("0294"),
        .summary = "Call of a NumPy function torch._numpy does not implement in a compiled region",
        .explanation = "TorchDynamo runs NumPy code on tensors through torch._numpy, which "
                       "implements most of numpy, numpy.random, numpy.linalg and numpy.fft but "
                       "not all: `np.isin`, the `nan*` reductions, `np.digitize`, `np.interp`, "
                       "`np.random.permutation` and the random distributions other than "
                       "uniform, normal, randint and choice are missing. A call of one ends the "
                       "graph, runs in Python and what follows is traced as a new graph, "
                       "whatever the arguments are, Python constants included.",
        .hint = "Use the torch function (torch.isin, torch.nanmean, torch.bucketize, "
                "torch.randperm, torch.distributions), or call it outside the compiled code "
                "and pass the result in.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM512",
        .name = "deprecated-sdp-kernel-context",
        .registry_id = "GB0142",
        .gb_type = "Unsupported context manager",
        .url = GM_GB_URL("0142"),
        .summary = "torch.backends.cuda.sdp_kernel(...) inside a compiled region",
        .explanation = "torch.backends.cuda.sdp_kernel is the deprecated form of "
                       "torch.nn.attention.sdpa_kernel: a generator context manager that "
                       "TorchDynamo does not trace (the call breaks the graph, GB0208) and "
                       "cannot enter (GB0142). In a `with` it cannot resume after that break, "
                       "so it skips the frame: the whole function runs eagerly.",
        .hint = "Use `with torch.nn.attention.sdpa_kernel([SDPBackend.FLASH_ATTENTION, "
                "SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH]):` (the backends the flags "
                "enable), which dynamo enters.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM601",
        .name = "class-in-region",
        .registry_id = "GB8977",
        .gb_type = "Invalid call to __build_class__",
        .url = GM_GB_URL("8977"),
        .summary = "Class definition inside a compiled region",
        .explanation = "A class statement runs `__build_class__`, which TorchDynamo cannot trace "
                       "for a class defined in compiled code: it ends the graph, runs the "
                       "definition in Python and traces what follows as a new graph.",
        .hint = "Define the class at module level and only use it in the compiled code.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM602",
        .name = "parameter-in-region",
        .registry_id = "GB0264",
        .gb_type = "Attempted to use `torch.nn.Parameter()` constructor with Dynamo",
        .url = GM_GB_URL("0264"),
        .summary = "nn.Parameter(...) constructed inside a compiled region",
        .explanation = "TorchDynamo does not construct torch.nn.Parameter while tracing: it ends "
                       "the graph, runs the constructor in Python and traces what follows as a "
                       "new graph.",
        .hint = "Create the parameter outside the compiled code (in __init__), or turn "
                "torch._dynamo.config.graph_break_on_nn_param_ctor off.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM603",
        .name = "next-on-argument",
        .registry_id = "GB4347",
        .gb_type = "Missing tp_iternext",
        .url = GM_GB_URL("4347"),
        .summary = "next() on an iterator passed into a compiled region",
        .explanation =
            "TorchDynamo cannot call next() on an iterator object it received from "
            "outside (a list_iterator, for example): it ends the graph, runs the call in "
            "Python and traces what follows as a new graph. An iterator the compiled "
            "code makes itself with iter() is traced.",
        .hint = "Pass the list (or the next value) in instead of an iterator, or build the "
                "iterator inside the compiled code with iter().",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM604",
        .name = "rnn-module-call",
        .registry_id = "GB0014",
        .gb_type = "Attempted to wrap RNN, GRU, or LSTM",
        .url = GM_GB_URL("0014"),
        .summary = "Call of an nn.LSTM/GRU/RNN module inside a compiled region",
        .explanation = "TorchDynamo does not trace nn.RNN, nn.GRU or nn.LSTM modules unless "
                       "torch._dynamo.config.allow_rnn is set. On torch 2.13 it cannot resume "
                       "after this break: it skips the function and runs all of it eagerly.",
        .hint = "Set torch._dynamo.config.allow_rnn = True (experimental), or call the recurrent "
                "module outside the compiled code and compile the parts around it.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM605",
        .name = "generator-send-on-argument",
        .registry_id = "GB0253",
        .gb_type = "call_method on generator",
        .url = GM_GB_URL("0253"),
        .summary = "send()/throw() on a generator passed into a compiled region",
        .explanation = "TorchDynamo cannot call send() or throw() on a generator object it "
                       "received from outside: it ends the graph, runs the call in Python and "
                       "traces what follows as a new graph. A generator the compiled code "
                       "creates itself is traced.",
        .hint = "Create the generator inside the compiled code, or pass the values in instead "
                "of the generator.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM606",
        .name = "comprehension-frame",
        .registry_id = "GB4347",
        .gb_type = "Missing tp_iternext",
        .url = GM_GB_URL("4347"),
        .summary = "Comprehension compiled apart in a function dynamo runs eagerly",
        .explanation =
            "Before Python 3.12 a list, set or dict comprehension runs as a frame of its own. "
            "When dynamo cannot finish the enclosing function's frame (a break in a loop or a "
            "try block, or one it cannot resume from) it runs the function eagerly and "
            "compiles each comprehension apart; one that reads the module and iterates a "
            "list, dict or other iterator it receives from outside cannot start: dynamo "
            "reports a break there and runs the comprehension in Python.",
        .hint = "Remove the break that makes the function run eagerly (its finding says why); "
                "or build the values with a plain for loop, or on Python 3.12+, where "
                "comprehensions are inlined.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM607",
        .name = "cached-property-read",
        .registry_id = "GB0142",
        .gb_type = "Unsupported context manager",
        .url = GM_GB_URL("0142"),
        .summary = "Read of a functools.cached_property inside a compiled region (Python < 3.12)",
        .explanation =
            "Before Python 3.12, functools.cached_property computes the value under an RLock, "
            "a context manager TorchDynamo cannot enter. On the first call, before the value "
            "is cached on the instance, dynamo cannot resume after this break: it skips the "
            "function and runs all of it eagerly.",
        .hint = "Compute the value in __init__ (or use a plain @property), or run the model "
                "once eagerly before compiling it so that the value is cached.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM608",
        .name = "buffer-reassignment",
        .registry_id = "GB4841",
        .gb_type = "Unsupported python_type() call",
        .url = GM_GB_URL("4841"),
        .summary = "No-op conversion of an nn.Buffer stored back to it in a compiled region",
        .explanation =
            "`self.pos = self.pos.to(...)` where __init__ made self.pos an nn.Buffer: when the "
            "conversion is a no-op it returns the nn.Buffer object itself, and "
            "nn.Module.__setattr__ re-registers it, reading its `persistent` attribute, which "
            "TorchDynamo cannot model: it ends the graph, runs the assignment in Python and "
            "traces what follows as a new graph. A real conversion stores a new tensor "
            "without a break.",
        .hint = "Keep the converted tensor in a local (`pos = self.pos.to(x.dtype)`), or move "
                "the buffer with the module (`model.to(dtype)`); a buffer made with "
                "register_buffer(...) can be re-assigned without a break.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM609",
        .name = "checkpoint-side-effect",
        .registry_id = "GB0067",
        .gb_type = "HOP: Unsafe side effect",
        .url = GM_GB_URL("0067"),
        .summary = "State changed outside a module's forward that gradient checkpointing may run",
        .explanation =
            "With gradient checkpointing enabled in training, torch.compile traces a "
            "checkpointed module's forward as the body of a higher-order op, which must not "
            "change anything that lives outside it. Storing or deleting an attribute of a module "
            "(`self.cache = x.clone()`, `del self.prev_features`) or an item of a dict or list "
            "passed in (`cache[\"mean\"] = 1`) makes TorchDynamo give up on the op and run the "
            "checkpointed call eagerly. The same code traces without a break when checkpointing "
            "is off, which only the run knows: the finding is made with the `training` setting, "
            "in files that checkpoint modules.",
        .hint = "Return the value and store it in the code that makes the checkpoint call, keep "
                "caches out of checkpointed modules, or leave checkpointing off for them.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM610",
        .name = "tensor-method-across-break",
        .registry_id = "GB0007",
        .gb_type = "Attempted to call function marked as skipped",
        .url = GM_GB_URL("0007"),
        .summary = "A tensor method whose arguments break the graph",
        .explanation =
            "Python looks up `h.masked_scatter` before it evaluates the arguments. When one of "
            "them breaks the graph (a boolean-mask read, `nonzero()`), TorchDynamo resumes after "
            "the break with the bound method as a value of the new frame, which it cannot trace: "
            "the call breaks the graph a second time. A torch function (`torch.add(h, ...)`) "
            "does not.",
        .hint = "Compute the breaking argument into a local on the line before the call, so the "
                "method is looked up after the break.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM611",
        .name = "min-max-iterator-keyword",
        .registry_id = "GB0193",
        .gb_type = "invalid call to builtin op handler",
        .url = GM_GB_URL("0193"),
        .summary = "max()/min() with default= or key= over an iterator",
        .explanation =
            "TorchDynamo's handler of the builtins max and min takes no keyword argument "
            "(`default=`, `key=`) when the one positional argument is an iterator: a generator "
            "expression, or what map, filter, zip or enumerate return. It ends the graph, runs "
            "the call in Python and traces what follows as a new graph. Over a list, tuple, "
            "range or set the same call is traced.",
        .hint = "Pass a list: a list comprehension instead of the generator expression, or "
                "list(map(...)). The builtin consumes the whole iterator anyway.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM612",
        .name = "untraceable-tensor-method",
        .registry_id = "GB0208",
        .gb_type = "torch.* op returned non-Tensor",
        .url = GM_GB_URL("0208"),
        .summary = "A Tensor method about the tensor's memory inside a compiled region",
        .explanation =
            "TorchDynamo traces tensors as fake tensors, which have no storage: "
            "`storage()`, `storage_offset()` and `is_pinned()` return values it cannot put in "
            "the graph (GB0208), and it does not trace `resize_()` (GB0126). Each ends the "
            "graph, runs in Python, and what follows is traced as a new graph.",
        .hint = "Read such properties outside the compiled code and pass the result in, or "
                "make a new tensor instead of resizing one in place.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM701",
        .name = "backward-call",
        .registry_id = "GB0123",
        .gb_type = "Unsupported Tensor.backward() call",
        .url = GM_GB_URL("0123"),
        .summary = "Tensor.backward() inside a compiled region",
        .explanation = "Before torch 2.14 TorchDynamo does not trace `Tensor.backward()` unless "
                       "torch._dynamo.config.trace_autograd_ops is set: it ends the graph, runs "
                       "the backward pass in Python and traces what follows as a new graph. "
                       "torch 2.14 traces it by default.",
        .hint = "Call backward outside the compiled function (compile the forward and the loss, "
                "then call loss.backward()), or set "
                "`torch._dynamo.config.trace_autograd_ops = True`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM702",
        .name = "autograd-grad",
        .registry_id = "GB9186",
        .gb_type = "using `torch.autograd.grad` with "
                   "`torch._dynamo.config.trace_autograd_ops=False`",
        .url = GM_GB_URL("9186"),
        .summary = "torch.autograd.grad() inside a compiled region",
        .explanation = "TorchDynamo does not trace torch.autograd.grad unless "
                       "torch._dynamo.config.trace_autograd_ops is set: it ends the graph, runs "
                       "the call in Python and traces what follows as a new graph.",
        .hint = "Compute gradients outside the compiled function, or set "
                "`torch._dynamo.config.trace_autograd_ops = True`.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM703",
        .name = "requires-grad-in-place",
        .registry_id = "GB0125",
        .gb_type = "Unsupported Tensor.requires_grad_() call",
        .url = GM_GB_URL("0125"),
        .summary = "requires_grad_() on an input, parameter or global inside a compiled region",
        .explanation = "TorchDynamo does not support changing whether a tensor it received (an "
                       "argument, a module parameter, a global) requires gradients: it ends the "
                       "graph, runs the call in Python and traces what follows as a new graph. "
                       "On a tensor the compiled code creates it is traced.",
        .hint = "Set requires_grad before calling the compiled code (in __init__ or in the "
                "training loop).",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM704",
        .name = "requires-grad-store",
        .registry_id = "GB0206",
        .gb_type = "setattr() on Tensor.requires_grad",
        .url = GM_GB_URL("0206"),
        .summary = "Assignment to Tensor.requires_grad inside a compiled region",
        .explanation = "Mutating requires_grad can turn a non-leaf into a leaf in the middle of "
                       "the graph, which AOTAutograd cannot handle: TorchDynamo ends the graph, "
                       "runs the assignment in Python and traces what follows as a new graph.",
        .hint = "Set requires_grad outside the compiled code, or create the tensor with the "
                "flag it needs.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM705",
        .name = "factory-requires-grad",
        .registry_id = "GB0225",
        .gb_type = "Attempted to use tensor creation function with requires_grad=True",
        .url = GM_GB_URL("0225"),
        .summary = "Tensor factory with requires_grad=True inside a compiled region",
        .explanation = "TorchDynamo does not create leaf tensors that require gradients "
                       "(torch.zeros/ones/randn/tensor/..._like with requires_grad=True): it "
                       "ends the graph, runs the call in Python and traces what follows as a "
                       "new graph.",
        .hint = "Create the tensor outside the compiled code (as an nn.Parameter in __init__, "
                "or an argument), or drop requires_grad=True.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM706",
        .name = "retain-grad",
        .registry_id = "GB0108",
        .gb_type = "Tensor.retain_grad() with AOTDispatcher",
        .url = GM_GB_URL("0108"),
        .summary = "Tensor.retain_grad() inside a compiled region",
        .explanation = "`Tensor.retain_grad()` does not work with AOTDispatcher. On torch 2.13 "
                       "TorchDynamo cannot resume after this break: it skips the function and "
                       "runs all of it eagerly.",
        .hint = "Register a hook outside the compiled code, or return the intermediate and "
                "read its gradient in eager code.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM707",
        .name = "function-apply-repeated-input",
        .registry_id = "GB6297",
        .gb_type = "autograd.Function.apply: duplicate tensor input",
        .url = GM_GB_URL("6297"),
        .summary = "autograd.Function.apply with the same tensor passed twice",
        .explanation = "With gradients enabled, TorchDynamo does not trace a custom "
                       "autograd.Function whose inputs repeat a tensor: it ends the graph, runs "
                       "the Function in Python and traces what follows as a new graph. Under "
                       "torch.no_grad() it is traced.",
        .hint = "Pass the tensor once and use it twice inside the Function, or pass a clone "
                "for the second input.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM708",
        .name = "inplace-view-on-input",
        .registry_id = "GB0148",
        .gb_type = "Unsupported function call (delayed)",
        .url = GM_GB_URL("0148"),
        .summary = "An in-place view op (`t_()`, `unsqueeze_()`, `detach_()`, ...) on an input, "
                   "parameter, buffer or global",
        .explanation = "Ops that change a tensor's metadata in place (`detach_`, `t_`, "
                       "`transpose_`, `squeeze_`, `unsqueeze_`, `swapdims_`, `as_strided_`, "
                       "`resize_`, `set_`) cannot be traced on a tensor the compiled code "
                       "received: an argument, a module's parameter or buffer, a global, or the "
                       "result of a call that broke the graph just before (it enters the "
                       "resumed graph as an input). TorchDynamo ends the graph at the call, "
                       "runs it in Python and traces what follows as a new graph. On a tensor "
                       "made inside the compiled code it is traced.",
        .hint = "Use the out-of-place op and keep the result (`w = w.t()`, `x = x.unsqueeze(0)`, "
                "`w = w.detach()`), or change the tensor before calling the compiled code.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM901",
        .name = "unused-suppression",
        .registry_id = NULL,
        .gb_type = NULL,
        .url = NULL,
        .summary = "A suppression comment that suppresses nothing",
        .explanation =
            "A `# graphmend: ignore[...]` or `# noqa: GM...` comment names a rule that reports "
            "nothing on its line (or a code that is no rule of graphmend's), so it hides no "
            "graph break: the break it was written for has gone, or the comment is on the "
            "wrong line. Like ruff's RUF100, this rule is reported only when selected by a "
            "selector more specific than `GM` (`GM9`, `GM901`).",
        .hint = "Remove the comment, or the codes in it that are unused (the fix does).",
        .severity = GM_SEVERITY_WARNING,
        .opt_in = true,
    },
    {
        .id = "GM902",
        .name = "library-breaks",
        .registry_id = NULL,
        .gb_type = NULL,
        .url = NULL,
        .summary = "`torch.compile(model)` of a model whose code is in an installed package",
        .explanation =
            "The model's class comes from an installed package (`from transformers import "
            "BartModel`), so the graph breaks of its forward are in the package's files, not "
            "in this one. graphmend finds the package through the configured Python "
            "interpreter, follows the model's path there (its forward, the forward of every "
            "module its __init__ builds, and what they call, across the package's files) and "
            "counts the breaks it predicts; the related locations open each of them.",
        .hint = "Profile with the package mended (`graphmend profile --packages NAME`), or "
                "mend the package's modules as they are imported (`graphmend run --packages "
                "NAME`).",
        .severity = GM_SEVERITY_INFORMATION,
    },
};

const gm_rule *gm_rules(size_t *count) {
    *count = sizeof rules / sizeof rules[0];
    return rules;
}

const gm_rule *gm_rule_by_id(const char *id) {
    if (!id)
        return NULL;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].id, id) == 0)
            return &rules[i];
    return NULL;
}
