"""torchode 1.0.1 (parallel ODE solvers): each configuration is a small module of its own whose
forward(y0, t_eval) builds an InitialValueProblem and calls the solver the way torchode's README
and documentation do (solve_ivp, or an ODETerm, a step method, a step size controller and an
adjoint built once in __init__), returning the solution's ys. Batch 2, state dim 3, 5 evaluation
points on [0, 1], loose tolerances so that one eager forward takes a few dozen steps."""


def configurations(torch):
    import torchode as to

    nn = torch.nn

    def decay(t, y):
        return -0.5 * y

    def decay_with_args(t, y, args):
        return -args * y

    class VectorField(nn.Module):
        """A small neural vector field f(t, y), as in a neural ODE."""

        def __init__(self, dim=3, hidden=8):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim, hidden), nn.Tanh(), nn.Linear(hidden, dim))

        def forward(self, t, y):
            return self.net(y)

    class TimeVectorField(nn.Module):
        """A vector field that also reads the time, f(t, y) = net([y, t])."""

        def __init__(self, dim=3, hidden=8):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.Softplus(), nn.Linear(hidden, dim))

        def forward(self, t, y):
            return self.net(torch.cat([y, t[:, None].expand(-1, 1)], dim=-1))

    class SolveIVP(nn.Module):
        """The functional interface: to.solve_ivp(f, y0, t_eval, method=...)."""

        def __init__(self, method="tsit5", vector_field=None, **kw):
            super().__init__()
            self.f = vector_field if vector_field is not None else decay
            self.method = method
            self.kw = kw

        def forward(self, y0, t_eval):
            sol = to.solve_ivp(self.f, y0, t_eval, method=self.method, **self.kw)
            return sol.ys

    class Solver(nn.Module):
        """The README's object interface: ODETerm, step method, controller, adjoint, solve."""

        def __init__(self, method=to.Dopri5, controller="integral", vector_field=None,
                     adjoint="autodiff", term_kw=None, controller_kw=None, adjoint_kw=None,
                     dt0=None, args=None, t_eval_mode="eval", final_only=False):
            super().__init__()
            self.vf = vector_field
            f = vector_field if vector_field is not None else decay
            term = to.ODETerm(f, **(term_kw or {}))
            step_method = method(term=term)
            ckw = {"atol": 1e-4, "rtol": 1e-3, "term": term, **(controller_kw or {})}
            if controller == "integral":
                step_size_controller = to.IntegralController(**ckw)
            elif controller == "pid":
                step_size_controller = to.PIDController(pcoeff=0.2, icoeff=0.5, dcoeff=0.0, **ckw)
            else:
                step_size_controller = to.FixedStepController()
            if adjoint == "autodiff":
                self.adjoint = to.AutoDiffAdjoint(step_method, step_size_controller, **(adjoint_kw or {}))
            elif adjoint == "backsolve":
                self.adjoint = to.BacksolveAdjoint(term, step_method, step_size_controller)
            else:
                self.adjoint = to.JointBacksolveAdjoint(term, step_method, step_size_controller)
            self.term = term
            self.dt0 = dt0
            self.args = args
            self.t_eval_mode = t_eval_mode
            self.final_only = final_only

        def forward(self, y0, t_eval):
            if self.t_eval_mode == "span":  # only the end points: the solution at t_end
                problem = to.InitialValueProblem(y0=y0, t_start=t_eval[:, 0], t_end=t_eval[:, -1])
            elif self.t_eval_mode == "backward":  # integrate backwards in time
                problem = to.InitialValueProblem(y0=y0, t_eval=t_eval.flip(-1))
            else:
                problem = to.InitialValueProblem(y0=y0, t_eval=t_eval)
            dt0 = None
            if self.dt0 is not None:
                dt0 = torch.full((y0.shape[0],), self.dt0, dtype=t_eval.dtype)
            args = None if self.args is None else torch.tensor(self.args)
            sol = self.adjoint.solve(problem, dt0=dt0, args=args)
            return sol.ys[:, -1] if self.final_only else sol.ys

    class NeuralODE(nn.Module):
        """Encoder, torchode-solved latent dynamics, decoder at the final time."""

        def __init__(self, dim=3, latent=4):
            super().__init__()
            self.encoder = nn.Linear(dim, latent)
            self.vector_field = VectorField(latent, 8)
            term = to.ODETerm(self.vector_field)
            self.adjoint = to.AutoDiffAdjoint(
                to.Tsit5(term=term), to.PIDController(atol=1e-4, rtol=1e-3, pcoeff=0.3, icoeff=0.3,
                                                      dcoeff=0.0, term=term))
            self.decoder = nn.Linear(latent, dim)

        def forward(self, y0, t_eval):
            z0 = self.encoder(y0)
            sol = self.adjoint.solve(to.InitialValueProblem(y0=z0, t_eval=t_eval))
            return self.decoder(sol.ys[:, -1])

    y = lambda: {"y0": torch.randn(2, 3), "t_eval": torch.linspace(0, 1, 5).repeat(2, 1)}  # noqa: E731
    y1d = lambda: {"y0": torch.randn(2, 3), "t_eval": torch.linspace(0, 1, 5)}  # noqa: E731
    def loose():  # a fresh controller per build
        return {"controller": to.PIDController(atol=1e-4, rtol=1e-3, pcoeff=0.2, icoeff=0.5, dcoeff=0.0)}

    return {
        "solve_ivp_tsit5": (lambda: SolveIVP("tsit5"), y),
        "solve_ivp_dopri5_mlp": (lambda: SolveIVP("dopri5", VectorField(), **loose()), y),
        "solve_ivp_1d_t_eval": (lambda: SolveIVP("tsit5", **loose()), y1d),
        "dopri5_integral": (lambda: Solver(to.Dopri5, "integral"), y),
        "tsit5_pid_mlp": (lambda: Solver(to.Tsit5, "pid", VectorField()), y),
        "tsit5_pid_time_mlp": (lambda: Solver(to.Tsit5, "pid", TimeVectorField()), y),
        "heun_integral": (lambda: Solver(to.Heun, "integral", controller_kw={"atol": 1e-3, "rtol": 1e-2}), y),
        "euler_fixed": (lambda: Solver(to.Euler, "fixed", VectorField(), dt0=0.1), y),
        "heun_fixed": (lambda: Solver(to.Heun, "fixed", dt0=0.1), y),
        "tsit5_fixed_mlp": (lambda: Solver(to.Tsit5, "fixed", VectorField(), dt0=0.25), y),
        "dopri5_with_args": (lambda: Solver(to.Dopri5, "integral", decay_with_args,
                                            term_kw={"with_args": True}, args=0.7), y),
        "tsit5_no_stats": (lambda: Solver(to.Tsit5, "pid", VectorField(), term_kw={"with_stats": False}), y),
        "dopri5_max_steps": (lambda: Solver(to.Dopri5, "integral", adjoint_kw={"max_steps": 4}), y),
        "tsit5_no_backprop_control": (lambda: Solver(to.Tsit5, "pid", VectorField(), adjoint_kw={
            "backprop_through_step_size_control": False}), y),
        "dopri5_dt_bounds": (lambda: Solver(to.Dopri5, "integral", controller_kw={
            "dt_min": 1e-3, "dt_max": 0.2}), y),
        "dopri5_t_span_only": (lambda: Solver(to.Dopri5, "integral", VectorField(), t_eval_mode="span"), y),
        "tsit5_backward_time": (lambda: Solver(to.Tsit5, "pid", t_eval_mode="backward"), y),
        "dopri5_backsolve_mlp": (lambda: Solver(to.Dopri5, "integral", VectorField(), adjoint="backsolve"), y),
        "tsit5_joint_backsolve_mlp": (lambda: Solver(to.Tsit5, "pid", VectorField(), adjoint="joint"), y),
        "neural_ode": (NeuralODE, y),
    }
