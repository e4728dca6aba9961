/* Calls of NumPy functions in a compiled region. TorchDynamo runs NumPy on tensors through
 * torch._numpy (verified on torch 2.13 with numpy 2.4, explain and the graph_breaks log):
 * - GM511 (GB0294): a numpy, numpy.random, numpy.linalg or numpy.fft function torch._numpy does
 *   not implement (`np.isin`, `np.nanmean`, `np.random.permutation`) breaks the graph, whatever
 *   its arguments, even Python constants;
 * - GM202 (GB0033): `np.random.choice` reads its arguments' data (aten._local_scalar_dense) in
 *   every form, and a random draw of one number (`np.random.uniform(0, 1)`, `np.random.rand()`,
 *   no `size`) returns a NumPy scalar read back from the tensor's data, used or not. With a size
 *   a draw stays an array in the graph. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

/* The functions of numpy's modules that torch._numpy lacks, sorted by byte (bsearch). From
 * torch 2.13.0 and numpy 2.4: the public lowercase callables of numpy, numpy.fft, numpy.linalg
 * and numpy.random that are not scalar types and not keys of
 * torch._dynamo.variables.misc.get_np_to_tnp_map(). */
static const char *const unsupported_functions[] = {
    "numpy.apply_along_axis", "numpy.apply_over_axes", "numpy.argpartition", "numpy.array2string",
    "numpy.array_repr", "numpy.array_str", "numpy.asanyarray", "numpy.asarray_chkfinite",
    "numpy.asfortranarray", "numpy.asmatrix", "numpy.astype", "numpy.base_repr",
    "numpy.binary_repr", "numpy.bitwise_count", "numpy.block", "numpy.bmat", "numpy.broadcast",
    "numpy.busday_count", "numpy.busday_offset", "numpy.busdaycalendar", "numpy.compress",
    "numpy.cumulative_prod", "numpy.cumulative_sum", "numpy.datetime_as_string",
    "numpy.datetime_data", "numpy.delete", "numpy.digitize", "numpy.ediff1d", "numpy.einsum_path",
    "numpy.errstate", "numpy.extract", "numpy.fft.test", "numpy.flatiter",
    "numpy.format_float_positional", "numpy.format_float_scientific", "numpy.frexp",
    "numpy.frombuffer", "numpy.fromfile", "numpy.fromfunction", "numpy.fromiter",
    "numpy.frompyfunc", "numpy.fromregex", "numpy.fromstring", "numpy.genfromtxt",
    "numpy.get_include", "numpy.get_printoptions", "numpy.getbufsize", "numpy.geterr",
    "numpy.geterrcall", "numpy.histogram_bin_edges", "numpy.info", "numpy.insert", "numpy.interp",
    "numpy.intersect1d", "numpy.is_busday", "numpy.isdtype", "numpy.isfortran", "numpy.isin",
    "numpy.isnat", "numpy.iterable", "numpy.ix_", "numpy.lexsort", "numpy.linalg.cross",
    "numpy.linalg.diagonal", "numpy.linalg.matmul", "numpy.linalg.matrix_norm",
    "numpy.linalg.matrix_transpose", "numpy.linalg.outer", "numpy.linalg.svdvals",
    "numpy.linalg.tensordot", "numpy.linalg.test", "numpy.linalg.trace", "numpy.linalg.vecdot",
    "numpy.linalg.vector_norm", "numpy.load", "numpy.loadtxt", "numpy.mask_indices",
    "numpy.matrix", "numpy.matrix_transpose", "numpy.matvec", "numpy.may_share_memory",
    "numpy.memmap", "numpy.mintypecode", "numpy.nanargmax", "numpy.nanargmin", "numpy.nancumprod",
    "numpy.nancumsum", "numpy.nanmax", "numpy.nanmean", "numpy.nanmedian", "numpy.nanmin",
    "numpy.nanpercentile", "numpy.nanprod", "numpy.nanquantile", "numpy.nanstd", "numpy.nansum",
    "numpy.nanvar", "numpy.ndenumerate", "numpy.ndindex", "numpy.nditer", "numpy.nested_iters",
    "numpy.packbits", "numpy.partition", "numpy.piecewise", "numpy.place", "numpy.poly",
    "numpy.poly1d", "numpy.polyadd", "numpy.polyder", "numpy.polydiv", "numpy.polyfit",
    "numpy.polyint", "numpy.polymul", "numpy.polysub", "numpy.polyval", "numpy.printoptions",
    "numpy.promote_types", "numpy.putmask", "numpy.random.beta", "numpy.random.binomial",
    "numpy.random.bytes", "numpy.random.chisquare", "numpy.random.default_rng",
    "numpy.random.dirichlet", "numpy.random.exponential", "numpy.random.f", "numpy.random.gamma",
    "numpy.random.geometric", "numpy.random.get_bit_generator", "numpy.random.get_state",
    "numpy.random.gumbel", "numpy.random.hypergeometric", "numpy.random.laplace",
    "numpy.random.logistic", "numpy.random.lognormal", "numpy.random.logseries",
    "numpy.random.multinomial", "numpy.random.multivariate_normal",
    "numpy.random.negative_binomial", "numpy.random.noncentral_chisquare",
    "numpy.random.noncentral_f", "numpy.random.pareto", "numpy.random.permutation",
    "numpy.random.poisson", "numpy.random.power", "numpy.random.random_integers",
    "numpy.random.ranf", "numpy.random.rayleigh", "numpy.random.set_bit_generator",
    "numpy.random.set_state", "numpy.random.standard_cauchy", "numpy.random.standard_exponential",
    "numpy.random.standard_gamma", "numpy.random.standard_normal", "numpy.random.standard_t",
    "numpy.random.test", "numpy.random.triangular", "numpy.random.vonmises", "numpy.random.wald",
    "numpy.random.weibull", "numpy.random.zipf", "numpy.ravel_multi_index", "numpy.recarray",
    "numpy.require", "numpy.roots", "numpy.save", "numpy.savetxt", "numpy.savez",
    "numpy.savez_compressed", "numpy.select", "numpy.set_printoptions", "numpy.setbufsize",
    "numpy.setdiff1d", "numpy.seterr", "numpy.seterrcall", "numpy.setxor1d", "numpy.shares_memory",
    "numpy.show_config", "numpy.show_runtime", "numpy.sort_complex", "numpy.spacing", "numpy.test",
    "numpy.trapezoid", "numpy.trim_zeros", "numpy.typename", "numpy.ufunc", "numpy.union1d",
    "numpy.unique_all", "numpy.unique_counts", "numpy.unique_inverse", "numpy.unique_values",
    "numpy.unpackbits", "numpy.unravel_index", "numpy.unstack", "numpy.unwrap", "numpy.vecdot",
    "numpy.vecmat", "numpy.vectorize",
};

static int compare_name(const void *key, const void *item) {
    return strcmp(key, *(const char *const *)item);
}

static bool unsupported_function(const char *name) {
    return bsearch(name, unsupported_functions,
                   sizeof unsupported_functions / sizeof unsupported_functions[0],
                   sizeof unsupported_functions[0], compare_name) != NULL;
}

/* numpy.random functions torch._numpy implements that draw numbers, with the position of
 * `size` (-1: every positional argument is a dimension, as in rand(2, 3)). */
static const struct {
    const char *name;
    int size_position;
} numpy_draws[] = {
    {"numpy.random.random", 0}, {"numpy.random.random_sample", 0}, {"numpy.random.sample", 0},
    {"numpy.random.rand", -1},  {"numpy.random.randn", -1},        {"numpy.random.uniform", 2},
    {"numpy.random.normal", 2}, {"numpy.random.randint", 2},
};

/* Whether call passes a size: the keyword, the positional slot, or (position -1) any
 * positional argument; a splat may hold one, so it counts as a size. */
static bool passes_size(const gm_stmt_ctx *st, TSNode call, int position) {
    const gm_syntax *syn = st->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return true; /* a generator argument: not a plain draw */
    int positional = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.comment))
            continue;
        if (gm_is(a, syn->sym.keyword_argument)) {
            if (gm_node_text_is(gm_child(a, syn->field.name), st->text, "size"))
                return true;
            continue;
        }
        if (gm_is(a, syn->sym.list_splat) || gm_is(a, syn->sym.dictionary_splat))
            return true;
        positional++;
    }
    return position < 0 ? positional > 0 : positional > position;
}

/* Emits rule at call; format holds one `%.*s`, the callee fn as written (cut for a message). */
static void emit(gm_region *region, const char *rule, TSNode call, TSNode fn, const char *format,
                 const char *declined) {
    gm_slice written = gm_node_slice(fn, region->stmt->text);
    if (written.len > 48)
        written.len = 48;
    char message[480];
    snprintf(message, sizeof message, format, (int)written.len, written.ptr);
    region->mend_declined = declined;
    gm_emit_finding(region, gm_rule_by_id(rule), call, message, NULL, 0);
}

static bool scalar_draw(gm_region *region, TSNode call, TSNode fn, const char *name) {
    for (size_t i = 0; i < sizeof numpy_draws / sizeof numpy_draws[0]; i++) {
        if (strcmp(name, numpy_draws[i].name) != 0)
            continue;
        if (passes_size(region->stmt, call, numpy_draws[i].size_position))
            return true;
        emit(region, "GM202", call, fn,
             "`%.*s()` draws one number: torch.compile runs NumPy on tensors and reads the draw "
             "back from the tensor's data as a Python number, which it cannot trace, so it "
             "breaks the graph here (whether the number is used or not); `torch.rand(())` keeps "
             "the draw in the graph",
             "torch.rand draws from torch's generator, not NumPy's, so the numbers differ: the "
             "rewrite is left to you");
        return true;
    }
    return false;
}

bool gm_rule_numpy_call(gm_region *region, TSNode call, TSNode fn, const char *name) {
    if (strncmp(name, "numpy.", 6) != 0)
        return false;
    if (scalar_draw(region, call, fn, name))
        return true;
    if (strcmp(name, "numpy.random.choice") == 0) {
        emit(region, "GM202", call, fn,
             "`%.*s()` reads its arguments' data: torch.compile runs NumPy on tensors, and choice "
             "turns tensor data into Python numbers, which it cannot trace, so it breaks the "
             "graph here; `torch.randperm(n)[:k]` or `torch.multinomial` keeps the draw in the "
             "graph",
             "torch draws from its own generator, not NumPy's, so the numbers differ: the "
             "rewrite is left to you");
    } else if (unsupported_function(name)) {
        emit(region, "GM511", call, fn,
             "`%.*s()` is a NumPy function torch.compile cannot run on tensors (torch._numpy does "
             "not implement it), so it breaks the graph here",
             "graphmend has no rewrite for this function; use its torch equivalent, or call it "
             "outside the compiled code");
    }
    return true;
}
