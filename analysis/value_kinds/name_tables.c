/* The name lists value kinds are decided by: torch functions and namespaces by what they
 * return, tensor methods and attributes, Python builtins and bool methods, the calls
 * torch.compile folds to a constant, torch context managers; lookups in such lists, and
 * gm_is_torch_context_manager, which is one. */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <string.h>

/* Attributes whose value dynamo knows while tracing, whatever they are read from. */
const char *const gm_vk_static_attributes[] = {
    "shape",   "dtype",     "device",       "ndim",    "is_cuda",   "requires_grad",
    "is_leaf", "is_sparse", "is_quantized", "is_meta", "is_cpu",    "is_mps",
    "layout",  "names",     "itemsize",     "nbytes",  "is_nested", NULL};

/* Attributes of a tensor that are tensors. */
const char *const gm_vk_tensor_attributes[] = {"T",    "mT",   "H",    "mH", "data",
                                               "grad", "real", "imag", NULL};

/* Tensor methods returning data-dependent Python values. */
const char *const gm_vk_scalar_methods[] = {"item",       "tolist",    "__bool__", "__int__",
                                            "__float__",  "__index__", "equal",    "allclose",
                                            "is_nonzero", NULL};

/* Tensor methods returning metadata dynamo knows while tracing. */
const char *const gm_vk_static_methods[] = {"dim",
                                            "ndimension",
                                            "size",
                                            "numel",
                                            "nelement",
                                            "element_size",
                                            "is_floating_point",
                                            "is_complex",
                                            "is_contiguous",
                                            "is_pinned",
                                            "is_shared",
                                            "is_inference",
                                            "stride",
                                            "storage_offset",
                                            "get_device",
                                            "type",
                                            "__len__",
                                            "has_names",
                                            "is_signed",
                                            "dim_order",
                                            NULL};

/* Tensor methods returning neither tensors nor metadata. */
const char *const gm_vk_other_methods[] = {"data_ptr",    "untyped_storage", "storage",
                                           "numpy",       "backward",        "register_hook",
                                           "retain_grad", "is_set_to",       NULL};

/* Methods only tensors have among common receivers: calling one is evidence of a tensor. */
const char *const gm_vk_tensor_reductions[] = {
    "sum", "mean", "max",    "min",    "any",  "all",  "norm",          "abs", "std",
    "var", "prod", "argmax", "argmin", "amax", "amin", "count_nonzero", NULL};

/* Tensor methods no other common receiver has (nn.Module also has float/half/to/cpu, NumPy
 * arrays astype/view/reshape/nonzero, lists count/index): a local name one of them is called on
 * holds a tensor. The op a rule looks at is no evidence by itself (`n.nonzero()` on an
 * unannotated n is not reported). */
const char *const gm_vk_tensor_evidence_methods[] = {
    "long",          "masked_fill", "masked_fill_", "unsqueeze",    "new_zeros",
    "new_ones",      "new_empty",   "new_full",     "type_as",      "topk",
    "relu",          "clone",       "bool",         "index_select", "contiguous",
    "masked_select", "detach",      "softmax",      "log_softmax",  NULL};

/* Methods of Python's bool (and int): any other method called on the result of a comparison
 * shows that it is a tensor. */
const char *const gm_vk_bool_methods[] = {
    "as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator",
    "from_bytes",       "imag",      "numerator",  "real",      "to_bytes",
    "is_integer",       NULL};

/* Tensor methods and torch functions whose result is a boolean tensor of the operand's shape. */
const char *const gm_vk_mask_methods[] = {
    "bool",        "isnan",     "isinf",       "isfinite",    "isneginf",
    "isposinf",    "isreal",    "logical_not", "logical_and", "logical_or",
    "logical_xor", "eq",        "ne",          "lt",          "le",
    "gt",          "ge",        "greater",     "less",        "greater_equal",
    "less_equal",  "not_equal", "signbit",     NULL};

/* torch functions that return something other than a tensor. */
const char *const gm_vk_torch_static_functions[] = {
    "torch.is_tensor",
    "torch.is_storage",
    "torch.is_floating_point",
    "torch.is_complex",
    "torch.numel",
    "torch.is_grad_enabled",
    "torch.is_inference_mode_enabled",
    "torch.is_autocast_enabled",
    "torch.get_autocast_gpu_dtype",
    "torch.get_autocast_dtype",
    "torch.get_default_dtype",
    "torch.get_default_device",
    "torch.device",
    "torch.dtype",
    "torch.Size",
    "torch.finfo",
    "torch.iinfo",
    "torch.typename",
    "torch.promote_types",
    "torch.result_type",
    "torch.can_cast",
    "torch.broadcast_shapes",
    "torch.get_num_threads",
    "torch.are_deterministic_algorithms_enabled",
    "torch.is_deterministic_algorithms_warn_only_enabled",
    "torch.sym_int",
    "torch.sym_float",
    "torch.sym_max",
    "torch.sym_min",
    "torch.sym_not",
    "torch.sym_ite",
    "torch.sym_sum",
    "torch.no_grad",
    "torch.enable_grad",
    "torch.set_grad_enabled",
    "torch.inference_mode",
    "torch.autocast",
    "torch.manual_seed",
    "torch.seed",
    "torch.initial_seed",
    "torch.set_default_dtype",
    "torch.set_default_device",
    "torch.set_printoptions",
    "torch.set_num_threads",
    "torch.use_deterministic_algorithms",
    "torch.compile",
    "torch.save",
    "torch.load",
    "torch.Generator",
    "torch.Stream",
    "torch.Event",
    NULL};

const char *const gm_vk_torch_scalar_functions[] = {"torch.equal", "torch.allclose",
                                                    "torch.is_nonzero", NULL};

/* torch namespaces whose functions do not return tensors (torch.nn.functional is handled
 * before these: its functions do). */
const char *const gm_vk_torch_static_prefixes[] = {"torch.compiler.",
                                                   "torch.jit.",
                                                   "torch.cuda.",
                                                   "torch.backends.",
                                                   "torch._dynamo.",
                                                   "torch.distributed.",
                                                   "torch.utils.",
                                                   "torch.onnx.",
                                                   "torch.fx.",
                                                   "torch.library.",
                                                   "torch.testing.",
                                                   "torch.profiler.",
                                                   "torch.autograd.profiler.",
                                                   "torch.autograd.graph.",
                                                   "torch.mps.",
                                                   "torch.xpu.",
                                                   "torch.cpu.",
                                                   "torch.amp.",
                                                   "torch.hub.",
                                                   "torch.overrides.",
                                                   "torch.export.",
                                                   "torch.optim.",
                                                   "torch.distributions.",
                                                   "torch._C.",
                                                   "torch.types.",
                                                   "torch.serialization.",
                                                   "torch.random.",
                                                   "torch.multiprocessing.",
                                                   "torch.package.",
                                                   "torch.ao.",
                                                   "torch.quantization.",
                                                   "torch._check",
                                                   "torch._assert",
                                                   "torch._logging.",
                                                   "torch._inductor.",
                                                   "torch.nn.",
                                                   NULL};

/* Context managers dynamo re-enters around a graph break instead of falling back. */
static const char *const torch_context_managers[] = {"torch.no_grad",
                                                     "torch.enable_grad",
                                                     "torch.inference_mode",
                                                     "torch.set_grad_enabled",
                                                     "torch.autocast",
                                                     "torch.amp.autocast",
                                                     "torch.cuda.amp.autocast",
                                                     "torch.cpu.amp.autocast",
                                                     "torch.autograd.no_grad",
                                                     "torch.autograd.enable_grad",
                                                     "torch.autograd.set_grad_enabled",
                                                     "torch.autograd.inference_mode",
                                                     "torch.autograd.grad_mode.no_grad",
                                                     "torch.autograd.grad_mode.enable_grad",
                                                     "torch.autograd.grad_mode.set_grad_enabled",
                                                     "torch.autograd.grad_mode.inference_mode",
                                                     "torch.device",
                                                     "torch.cuda.device",
                                                     "torch.cuda.stream",
                                                     "torch.cuda.StreamContext",
                                                     "torch.nn.attention.sdpa_kernel",
                                                     "torch.autograd.profiler.record_function",
                                                     "torch.profiler.record_function",
                                                     NULL};

/* Builtins whose result is a Python value known while tracing. */
const char *const gm_vk_static_builtins[] = {
    "len",   "isinstance", "issubclass", "hasattr", "callable", "type", "id",
    "range", "str",        "repr",       "format",  "hash",     NULL};

bool gm_vk_in_list(const char *const *list, const char *word) {
    for (; *list; list++)
        if (strcmp(*list, word) == 0)
            return true;
    return false;
}

bool gm_vk_slice_in_list(const char *const *list, gm_slice s) {
    for (; *list; list++)
        if (gm_slice_is(s, *list))
            return true;
    return false;
}

bool gm_vk_has_prefix_in(const char *const *list, const char *name) {
    for (; *list; list++)
        if (strncmp(name, *list, strlen(*list)) == 0)
            return true;
    return false;
}

bool gm_is_torch_context_manager(gm_region *region, TSNode expr) {
    const gm_syntax *syn = syn_of(region);
    expr = gm_unparen(syn, expr);
    if (gm_is(expr, syn->sym.call))
        expr = gm_child(expr, syn->field.function);
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(region->stmt->symbols, syn, text_of(region), expr, name, sizeof name))
        return false;
    return gm_vk_in_list(torch_context_managers, name);
}
