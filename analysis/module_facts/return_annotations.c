#include "analysis/module_facts/return_annotations.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool name_is_tensor_type(const char *name) {
    if (strcmp(name, "Tensor") == 0)
        return true;
    if (strncmp(name, "torch.", 6) != 0)
        return false;
    size_t n = strlen(name);
    return n >= 6 && strcmp(name + n - 6, "Tensor") == 0; /* torch.Tensor, torch.LongTensor */
}

/* A subscripted type, `Tuple[A, B]` (a generic_type: the name, then a type_parameter holding
 * the elements) or `typing.Tuple[A, B]` (a subscript: the value, then the elements): its
 * outer name and the node whose named children from first_element on are the elements. */
static bool generic_parts(const gm_syntax *syn, TSNode type, TSNode *outer, TSNode *holder,
                          uint32_t *first_element) {
    if (gm_is(type, syn->sym.generic_type) && ts_node_named_child_count(type) == 2) {
        *outer = ts_node_named_child(type, 0);
        *holder = ts_node_named_child(type, 1);
        *first_element = 0;
        return true;
    }
    if (gm_is(type, syn->sym.subscript) && ts_node_named_child_count(type) >= 2) {
        *outer = ts_node_named_child(type, 0);
        *holder = type;
        *first_element = 1;
        return true;
    }
    return false;
}

static bool annotation_is_tensor(const gm_symbols *symbols, const gm_syntax *syn,
                                 const char *text, TSNode type, bool allow_optional,
                                 bool *boolean, int depth) {
    if (ts_node_is_null(type) || depth > 8)
        return false;
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        return annotation_is_tensor(symbols, syn, text, ts_node_named_child(type, 0),
                                    allow_optional, boolean, depth + 1);
    char name[GM_NAME_MAX];
    if (gm_is(type, syn->sym.identifier) || gm_is(type, syn->sym.attribute)) {
        if (!gm_symbols_resolve(symbols, syn, text, type, name, sizeof name) ||
            !name_is_tensor_type(name))
            return false;
        if (boolean)
            *boolean = gm_name_last_is(name, "BoolTensor");
        return true;
    }
    if (!allow_optional)
        return false;
    TSNode outer, holder;
    uint32_t first;
    if (generic_parts(syn, type, &outer, &holder, &first)) {
        if (!gm_symbols_resolve(symbols, syn, text, outer, name, sizeof name) ||
            !gm_name_last_is(name, "Optional") || ts_node_named_child_count(holder) != first + 1)
            return false;
        return annotation_is_tensor(symbols, syn, text, ts_node_named_child(holder, first), true,
                                    boolean, depth + 1);
    }
    if (gm_is(type, syn->sym.binary_operator)) {
        TSNode left = gm_child(type, syn->field.left), right = gm_child(type, syn->field.right);
        bool lt = annotation_is_tensor(symbols, syn, text, left, true, boolean, depth + 1);
        bool rt = annotation_is_tensor(symbols, syn, text, right, true, boolean, depth + 1);
        return (lt || rt) && (lt || gm_is(left, syn->sym.none)) &&
               (rt || gm_is(right, syn->sym.none));
    }
    return false;
}

bool gm_annotation_is_tensor(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             TSNode type, bool allow_optional, bool *boolean) {
    return annotation_is_tensor(symbols, syntax, text, type, allow_optional, boolean, 0);
}

gm_return_kinds gm_function_return_kinds(const gm_symbols *symbols, const gm_syntax *syn,
                                         const char *text, TSNode fn) {
    gm_return_kinds none = {0, 0};
    TSNode type = gm_child(fn, syn->field.return_type);
    if (ts_node_is_null(type))
        return none;
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        type = ts_node_named_child(type, 0);
    if (annotation_is_tensor(symbols, syn, text, type, false, NULL, 0))
        return (gm_return_kinds){0, 1};
    /* Tuple[Tensor, Tensor] / tuple[Tensor, Optional[Tensor]]: not Tuple[Tensor, ...] */
    TSNode outer, holder;
    uint32_t first;
    if (!generic_parts(syn, type, &outer, &holder, &first))
        return none;
    char name[GM_NAME_MAX];
    bool is_tuple = gm_node_text_is(outer, text, "tuple") ||
                    (gm_symbols_resolve(symbols, syn, text, outer, name, sizeof name) &&
                     strcmp(name, "typing.Tuple") == 0);
    uint32_t count = ts_node_named_child_count(holder) - first;
    if (!is_tuple || count < 2 || count > GM_RETURN_TUPLE_MAX)
        return none;
    gm_return_kinds kinds = {(uint8_t)count, 0};
    for (uint32_t i = 0; i < count; i++) {
        TSNode element = ts_node_named_child(holder, first + i);
        if (gm_is(element, syn->sym.type) && ts_node_named_child_count(element) > 0)
            element = ts_node_named_child(element, 0);
        if (gm_is(element, syn->sym.ellipsis))
            return none;
        if (annotation_is_tensor(symbols, syn, text, element, false, NULL, 0))
            kinds.tensors |= (uint8_t)(1u << i);
    }
    return kinds.tensors ? kinds : none;
}

void gm_return_kinds_format(gm_return_kinds kinds, char *out, size_t cap) {
    snprintf(out, cap, "%u:%u", (unsigned)kinds.arity, (unsigned)kinds.tensors);
}

bool gm_return_kinds_parse(const char *spelled, gm_return_kinds *kinds) {
    char *end;
    unsigned long arity = strtoul(spelled, &end, 10);
    if (end == spelled || *end != ':' || arity > GM_RETURN_TUPLE_MAX)
        return false;
    const char *mask_text = end + 1;
    unsigned long tensors = strtoul(mask_text, &end, 10);
    if (end == mask_text || *end != '\0' || tensors == 0 || tensors > 0xff ||
        (arity > 0 && tensors >> arity) || (arity == 0 && tensors != 1))
        return false;
    *kinds = (gm_return_kinds){(uint8_t)arity, (uint8_t)tensors};
    return true;
}
