"""torchsde 0.2.6: sdeint over the noise types (diagonal, scalar, additive, general) and SDE types
(Ito, Stratonovich) with the solvers valid for each (euler, milstein with and without grad_free,
srk, midpoint, heun, euler_heun, reversible_heun, log_ode), adaptive stepping, logqp, the
Brownian motions given explicitly (BrownianInterval with a Levy area approximation, BrownianPath,
BrownianTree), renamed drift and diffusion methods, and sdeint_adjoint. The entry point is a
function, so each configuration's module holds its SDE (an nn.Module with f and g built from
Linear layers, as torchsde documents) and its forward(y0, ts) calls the solver on it and returns
a tensor. State 3, batch 2, 5 output times on [0, 1], dt 0.25 (4 steps)."""

STATE = 3
NOISE = 2  # the Brownian channels of the general noise SDEs
BATCH = 2
DT = 0.25


def configurations(torch):
    import torchsde
    from torch import nn

    class Diagonal(nn.Module):
        noise_type = "diagonal"

        def __init__(self, sde_type="ito", prior=False):
            super().__init__()
            self.sde_type = sde_type
            self.drift = nn.Linear(STATE, STATE)
            self.diffusion = nn.Linear(STATE, STATE)
            if prior:
                self.prior = nn.Linear(STATE, STATE)

        def f(self, t, y):
            return torch.tanh(self.drift(y))

        def g(self, t, y):
            return torch.sigmoid(self.diffusion(y))

        def h(self, t, y):  # the prior drift, used by logqp
            return -self.prior(y)

    class Scalar(nn.Module):
        noise_type = "scalar"

        def __init__(self, sde_type="ito"):
            super().__init__()
            self.sde_type = sde_type
            self.drift = nn.Linear(STATE, STATE)
            self.diffusion = nn.Linear(STATE, STATE)

        def f(self, t, y):
            return torch.tanh(self.drift(y))

        def g(self, t, y):
            return torch.sigmoid(self.diffusion(y)).unsqueeze(-1)  # (batch, state, 1)

    class Additive(nn.Module):
        noise_type = "additive"

        def __init__(self, sde_type="ito"):
            super().__init__()
            self.sde_type = sde_type
            self.drift = nn.Linear(STATE + 1, STATE)
            self.sigma = nn.Parameter(torch.full((STATE, NOISE), 0.3))

        def f(self, t, y):
            t = t.expand(y.size(0), 1)
            return torch.tanh(self.drift(torch.cat([t, y], dim=1)))

        def g(self, t, y):
            return self.sigma.expand(y.size(0), STATE, NOISE)

    class General(nn.Module):
        noise_type = "general"

        def __init__(self, sde_type="ito"):
            super().__init__()
            self.sde_type = sde_type
            self.drift = nn.Linear(STATE, STATE)
            self.diffusion = nn.Linear(STATE, STATE * NOISE)

        def f(self, t, y):
            return torch.tanh(self.drift(y))

        def g(self, t, y):
            return torch.sigmoid(self.diffusion(y)).view(y.size(0), STATE, NOISE)

    class Renamed(nn.Module):
        """Drift and diffusion under names of its own, given to sdeint with names=."""
        noise_type = "diagonal"
        sde_type = "stratonovich"

        def __init__(self):
            super().__init__()
            self.net = nn.Linear(STATE, 2 * STATE)

        def mu(self, t, y):
            return torch.tanh(self.net(y)[:, :STATE])

        def sigma(self, t, y):
            return torch.sigmoid(self.net(y)[:, STATE:])

    class Solve(nn.Module):
        """forward(y0, ts) -> sdeint(self.sde, y0, ts, ...); bm, if given, builds the Brownian
        motion from y0 and ts inside forward, as a user's training step does."""

        def __init__(self, sde, bm=None, adjoint=False, logqp=False, **kwargs):
            super().__init__()
            self.sde = sde
            self.bm = bm
            self.adjoint = adjoint
            self.logqp = logqp
            self.kwargs = kwargs

        def forward(self, y0, ts):
            kwargs = dict(self.kwargs)
            if self.bm is not None:
                kwargs["bm"] = self.bm(y0, ts)
            solve = torchsde.sdeint_adjoint if self.adjoint else torchsde.sdeint
            if self.logqp:
                ys, logqp = solve(self.sde, y0, ts, logqp=True, **kwargs)
                return ys[-1].sum() + logqp.sum()
            return solve(self.sde, y0, ts, **kwargs)

    def inputs():
        return {"y0": torch.randn(BATCH, STATE) * 0.5, "ts": torch.linspace(0, 1, 5)}

    def interval(levy):
        def bm(y0, ts, noise=NOISE):
            return torchsde.BrownianInterval(t0=ts[0], t1=ts[-1], size=(y0.size(0), noise),
                                             dtype=y0.dtype, device=y0.device,
                                             levy_area_approximation=levy)
        return bm

    def path(y0, ts):
        return torchsde.BrownianPath(t0=ts[0], w0=torch.zeros_like(y0))

    def tree(y0, ts):
        return torchsde.BrownianTree(t0=ts[0], w0=torch.zeros_like(y0), t1=ts[-1], entropy=0)

    def solve(sde, **kw):
        kw.setdefault("dt", DT)
        return lambda: Solve(sde(), **kw)

    return {
        "diagonal_ito_euler": (solve(Diagonal, method="euler"), inputs),
        "diagonal_ito_milstein": (solve(Diagonal, method="milstein"), inputs),
        "diagonal_ito_milstein_grad_free": (solve(Diagonal, method="milstein",
                                                  options={"grad_free": True}), inputs),
        "diagonal_ito_srk_default": (solve(Diagonal), inputs),  # method None: srk
        "diagonal_ito_srk_adaptive": (solve(Diagonal, method="srk", adaptive=True, rtol=1e-2,
                                            atol=1e-2, dt_min=0.05), inputs),
        "diagonal_ito_euler_logqp": (solve(lambda: Diagonal(prior=True), method="euler",
                                           logqp=True), inputs),
        "scalar_ito_srk": (solve(Scalar, method="srk"), inputs),
        "additive_ito_srk": (solve(Additive, method="srk"), inputs),
        "general_ito_euler_interval": (solve(General, method="euler",
                                             bm=interval("none")), inputs),
        "diagonal_strat_midpoint": (solve(lambda: Diagonal("stratonovich"), method="midpoint"),
                                    inputs),
        "diagonal_strat_heun_path": (solve(lambda: Diagonal("stratonovich"), method="heun",
                                           bm=path), inputs),
        "diagonal_strat_euler_heun_tree": (solve(lambda: Diagonal("stratonovich"),
                                                 method="euler_heun", bm=tree), inputs),
        "diagonal_strat_milstein": (solve(lambda: Diagonal("stratonovich"), method="milstein"),
                                    inputs),
        "diagonal_strat_reversible_heun": (solve(lambda: Diagonal("stratonovich"),
                                                 method="reversible_heun"), inputs),
        "general_strat_log_ode_foster": (solve(lambda: General("stratonovich"), method="log_ode",
                                               bm=interval("foster")), inputs),
        "renamed_strat_midpoint": (solve(Renamed, method="midpoint",
                                         names={"drift": "mu", "diffusion": "sigma"}), inputs),
        "adjoint_diagonal_strat_reversible_heun": (solve(
            lambda: Diagonal("stratonovich"), adjoint=True, method="reversible_heun",
            adjoint_method="adjoint_reversible_heun"), inputs),
        "adjoint_diagonal_ito_milstein": (solve(Diagonal, adjoint=True, method="milstein"), inputs),
        "adjoint_general_strat_midpoint": (solve(lambda: General("stratonovich"), adjoint=True,
                                                 method="midpoint"), inputs),
    }
