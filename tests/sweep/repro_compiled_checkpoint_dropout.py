"""A torch 2.13 behaviour the mend sweep meets, without graphmend: a model whose checkpointed layers
(torch.utils.checkpoint, non-reentrant) use dropout, compiled whole (backend="eager"), gets
different gradients than in eager mode for the last layer's norm, while its outputs are equal
(the recomputation does not replay the forward's dropout masks). With p=0 the gradients agree.
A mend that removes the last break inside such a layer lets dynamo compile the checkpoint whole,
so the mended model's compiled gradients differ from the original's (DETR in train mode), while
its eager outputs and gradients are equal.

    .venv/bin/python tests/sweep/repro_compiled_checkpoint_dropout.py
"""
import torch, torch._dynamo
from torch import nn
from torch.utils.checkpoint import checkpoint

class L(nn.Module):
    def __init__(s):
        super().__init__(); s.fc=nn.Linear(8,8); s.ln=nn.LayerNorm(8)
    def forward(s,h):
        h = nn.functional.dropout(s.fc(h), p=0.3, training=s.training)
        h = s.ln(h)
        return h

class M(nn.Module):
    def __init__(s):
        super().__init__(); s.a=L(); s.b=L()
    def forward(s,x):
        x = checkpoint(s.a, x, use_reentrant=False)
        x = checkpoint(s.b, x, use_reentrant=False)
        return x

def grads(compiled):
    torch.manual_seed(0); m=M().train(); x=torch.randn(4,8)
    f = torch.compile(m, backend="eager") if compiled else m
    torch.manual_seed(1); out=f(x); out.sum().backward()
    return {n:p.grad.clone() for n,p in m.named_parameters()}, out.detach()
ge,oe=grads(False); torch._dynamo.reset(); gc,oc=grads(True)
print('outputs equal', torch.allclose(oe,oc))
for n in ge: print(n, float((ge[n]-gc[n]).abs().max()))
