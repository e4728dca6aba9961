"""Unannotated parameters of a compiled function are tensors by what the function does with them,
as torch's operator schemas tell it (tools/gen-int-parameters): passed first to a torch function
that takes only a tensor there (`torch.abs(y0)`), or given a method no ndarray, Python value or
nn.Module has (`steps.roll(1)`, `t.deg2rad()`). A branch on the parameter itself is then
data-dependent. A parameter used only in ways other values share (`scale * 2`, `len(items)`)
stays unknown: no finding on it."""
import torch


@torch.compile
def integrate(y0, t, steps, scale, items):
    y = torch.abs(y0) + steps.roll(1).sum() + t.deg2rad()
    if y0[0] > 0:  # expect: GM101
        y = y / 2
    if steps[-1] > 1:  # expect: GM101
        y = y + 1
    if t > 0:  # expect: GM101
        y = -y
    if scale * 2 > 1 and len(items) > 1:
        y = y * scale
    return y


def example():
    return integrate, (torch.randn(4), torch.tensor(30.0), torch.arange(3), 0.75, [1, 2])
