"""snntorch 1.0.0 (spiking neural networks): its neurons (Leaky, Synaptic, Alpha, Lapicque,
RLeaky, RSynaptic, SLSTM, SConv2dLSTM) run over a few time steps inside small
networks written as the tutorials write them: a loop over time in forward, the hidden state either
returned and passed back (init_hidden=False, from reset_mem/init_leaky) or kept on the neuron
(init_hidden=True, cleared with snntorch.utils.reset), the reset mechanisms, learnable decay and
threshold, surrogate gradients, and spikegen.rate and snntorch.functional's losses computed in
forward. Sizes are tiny: 4 time steps, batch 2, 8 features, 8x8 images.

Each build starts from the library state of a fresh process, so that a run does not depend on the
configurations before it: SpikingNeuron.instances (the class-level list of every neuron built,
which reset_hidden/detach_hidden walk) is emptied, and the is_leaky, is_synaptic, ... flags that
snntorch.utils.reset first creates as module globals are removed (once they exist, a later
compile of utils.reset finds them and does not break where a first one does)."""

from __future__ import annotations

STEPS, BATCH, FEATURES, CLASSES = 4, 2, 8, 4


def configurations(torch):
    import snntorch as snn
    import snntorch.functional as SF
    from snntorch import spikegen, surrogate, utils
    from torch import nn

    class TwoLayer(nn.Module):
        """Tutorial 5: fc -> neuron -> fc -> neuron over time, states from reset_mem()."""

        def __init__(self, neuron):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES)
            self.lif1 = neuron()
            self.fc2 = nn.Linear(FEATURES, CLASSES)
            self.lif2 = neuron()

        def forward(self, x):
            mem1 = self.lif1.init_leaky()
            mem2 = self.lif2.reset_mem()
            spk_rec, mem_rec = [], []
            for step in range(x.size(0)):
                spk1, mem1 = self.lif1(self.fc1(x[step]), mem1)
                spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
                spk_rec.append(spk2)
                mem_rec.append(mem2)
            return torch.stack(spk_rec, dim=0), torch.stack(mem_rec, dim=0)

    class SynapticNet(nn.Module):
        def __init__(self, **kw):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES)
            self.lif1 = snn.Synaptic(alpha=0.9, beta=0.8, **kw)
            self.fc2 = nn.Linear(FEATURES, CLASSES)
            self.lif2 = snn.Synaptic(alpha=0.9, beta=0.8, **kw)

        def forward(self, x):
            syn1, mem1 = self.lif1.init_synaptic()
            syn2, mem2 = self.lif2.reset_mem()
            spk_rec = []
            for step in range(x.size(0)):
                spk1, syn1, mem1 = self.lif1(self.fc1(x[step]), syn1, mem1)
                spk2, syn2, mem2 = self.lif2(self.fc2(spk1), syn2, mem2)
                spk_rec.append(spk2)
            return torch.stack(spk_rec), mem2

    class AlphaNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES)
            self.lif1 = snn.Alpha(alpha=0.9, beta=0.8, spike_grad=surrogate.sigmoid(slope=10))

        def forward(self, x):
            syn_exc, syn_inh, mem = self.lif1.init_alpha()
            spk_rec = []
            for step in range(x.size(0)):
                spk, syn_exc, syn_inh, mem = self.lif1(self.fc1(x[step]), syn_exc, syn_inh, mem)
                spk_rec.append(spk)
            return torch.stack(spk_rec), mem

    class LapicqueNet(nn.Module):
        def __init__(self, **kw):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES)
            self.lif1 = snn.Lapicque(**kw)

        def forward(self, x):
            mem = self.lif1.init_lapicque()
            spk_rec, mem_rec = [], []
            for step in range(x.size(0)):
                spk, mem = self.lif1(self.fc1(x[step]), mem)
                spk_rec.append(spk)
                mem_rec.append(mem)
            return torch.stack(spk_rec), torch.stack(mem_rec)

    class RecurrentNet(nn.Module):
        """RLeaky / RSynaptic with explicit states."""

        def __init__(self, neuron, synaptic=False):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES)
            self.lif1 = neuron()
            self.synaptic = synaptic

        def forward(self, x):
            if self.synaptic:
                spk, syn, mem = self.lif1.init_rsynaptic()
            else:
                spk, mem = self.lif1.init_rleaky()
            spk_rec = []
            for step in range(x.size(0)):
                if self.synaptic:
                    spk, syn, mem = self.lif1(self.fc1(x[step]), spk, syn, mem)
                else:
                    spk, mem = self.lif1(self.fc1(x[step]), spk, mem)
                spk_rec.append(spk)
            return torch.stack(spk_rec), mem

    class HiddenSequential(nn.Module):
        """Tutorial 7: an nn.Sequential of init_hidden=True neurons, the last with output=True,
        cleared with snntorch.utils.reset before the loop over time."""

        def __init__(self, *layers):
            super().__init__()
            self.net = nn.Sequential(*layers)

        def forward(self, x):
            utils.reset(self.net)
            spk_rec, mem_rec = [], []
            for step in range(x.size(0)):
                out = self.net(x[step])
                spk, mem = out[0], out[-1]
                spk_rec.append(spk)
                mem_rec.append(mem)
            return torch.stack(spk_rec), torch.stack(mem_rec)

    class SLSTMNet(nn.Module):
        def __init__(self, **kw):
            super().__init__()
            self.slstm1 = snn.SLSTM(FEATURES, FEATURES, **kw)
            self.fc = nn.Linear(FEATURES, CLASSES)
            self.lif = snn.Leaky(beta=0.9)

        def forward(self, x):
            syn, mem = self.slstm1.init_slstm()
            mem2 = self.lif.reset_mem()
            spk_rec = []
            for step in range(x.size(0)):
                spk1, syn, mem = self.slstm1(x[step], syn, mem)
                spk2, mem2 = self.lif(self.fc(spk1), mem2)
                spk_rec.append(spk2)
            return torch.stack(spk_rec), mem2

    class SConvLSTMNet(nn.Module):
        def __init__(self, **kw):
            super().__init__()
            self.sclstm1 = snn.SConv2dLSTM(1, 4, 3, max_pool=2, **kw)
            self.fc = nn.Linear(4 * 4 * 4, CLASSES)
            self.lif = snn.Leaky(beta=0.5, spike_grad=surrogate.straight_through_estimator())

        def forward(self, x):
            syn, mem = self.sclstm1.init_sconv2dlstm()
            mem2 = self.lif.init_leaky()
            spk_rec = []
            for step in range(x.size(0)):
                spk1, syn, mem = self.sclstm1(x[step], syn, mem)
                spk2, mem2 = self.lif(self.fc(spk1.flatten(1)), mem2)
                spk_rec.append(spk2)
            return torch.stack(spk_rec), mem2

    class SConvLSTMHidden(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(
                snn.SConv2dLSTM(1, 4, 3, avg_pool=2, init_hidden=True, reset_mechanism="zero"),
                nn.Flatten(),
                nn.Linear(4 * 4 * 4, CLASSES),
                snn.Leaky(beta=0.5, init_hidden=True, output=True))

        def forward(self, x):
            utils.reset(self.net)
            spk_rec = []
            for step in range(x.size(0)):
                spk, mem = self.net(x[step])
                spk_rec.append(spk)
            return torch.stack(spk_rec)

    class RateCodedLoss(nn.Module):
        """Static input rate-coded with spikegen.rate in forward, a Leaky network, and
        snntorch.functional's count loss plus L1 spike sparsity on the output spikes."""

        def __init__(self, loss):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES)
            self.lif1 = snn.Leaky(beta=0.9, spike_grad=surrogate.fast_sigmoid(slope=25))
            self.fc2 = nn.Linear(FEATURES, CLASSES)
            self.lif2 = snn.Leaky(beta=0.9, spike_grad=surrogate.fast_sigmoid(slope=25))
            self.loss_fn = loss
            self.reg = SF.l1_rate_sparsity(Lambda=1e-3)

        def forward(self, x, targets):
            spikes = spikegen.rate(x, num_steps=STEPS)
            mem1, mem2 = self.lif1.reset_mem(), self.lif2.reset_mem()
            spk_rec = []
            for step in range(STEPS):
                spk1, mem1 = self.lif1(self.fc1(spikes[step]), mem1)
                spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
                spk_rec.append(spk2)
            spk_rec = torch.stack(spk_rec)
            return self.loss_fn(spk_rec, targets) + self.reg(spk_rec)

    class ConvNetLoss(nn.Module):
        """Tutorial 6/7: a convolutional SNN as nn.Sequential of init_hidden neurons, reset with
        utils.reset, its output spikes scored with ce_rate_loss in forward."""

        def __init__(self):
            super().__init__()
            grad = surrogate.atan(alpha=2.0)
            self.net = nn.Sequential(
                nn.Conv2d(1, 4, 3, padding=1), nn.MaxPool2d(2),
                snn.Leaky(beta=0.5, spike_grad=grad, init_hidden=True),
                nn.Flatten(), nn.Linear(4 * 4 * 4, CLASSES),
                snn.Leaky(beta=0.5, spike_grad=grad, init_hidden=True, output=True))
            self.loss_fn = SF.ce_rate_loss()

        def forward(self, x, targets):
            utils.reset(self.net)
            spk_rec = []
            for step in range(x.size(0)):
                spk, _ = self.net(x[step])
                spk_rec.append(spk)
            return self.loss_fn(torch.stack(spk_rec), targets)

    class BNTTNet(nn.Module):
        """Batch norm through time: one BatchNorm1d per step (snntorch.BatchNormTT1d)."""

        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(FEATURES, FEATURES, bias=False)
            self.bntt = snn.BatchNormTT1d(FEATURES, STEPS)
            self.lif1 = snn.Leaky(beta=0.9, learn_beta=True, reset_mechanism="zero")
            self.fc2 = nn.Linear(FEATURES, CLASSES)

        def forward(self, x):
            mem = self.lif1.reset_mem()
            out = []
            for step in range(STEPS):
                spk, mem = self.lif1(self.bntt[step](self.fc1(x[step])), mem)
                out.append(self.fc2(spk))
            return torch.stack(out)

    def seq():
        return lambda: {"x": torch.rand(STEPS, BATCH, FEATURES)}

    def images():
        return lambda: {"x": torch.rand(STEPS, BATCH, 1, 8, 8)}

    def leaky(**kw):
        return lambda: snn.Leaky(beta=0.9, **kw)

    def fresh(build):
        def fresh_build():
            snn.SpikingNeuron.init()
            for name in [n for n in vars(utils) if n.startswith("is_")]:
                delattr(utils, name)
            return build()
        return fresh_build

    return {name: (fresh(build), inputs) for name, (build, inputs) in {
        "Leaky_subtract": (lambda: TwoLayer(leaky()), seq()),
        "Leaky_zero_fast_sigmoid_learn": (lambda: TwoLayer(leaky(
            reset_mechanism="zero", spike_grad=surrogate.fast_sigmoid(slope=25),
            learn_beta=True, learn_threshold=True)), seq()),
        "Leaky_none_no_reset_delay": (lambda: TwoLayer(leaky(
            reset_mechanism="none", reset_delay=False, spike_grad=surrogate.triangular(),
            graded_spikes_factor=0.5, learn_graded_spikes_factor=True)), seq()),
        "Leaky_init_hidden_sequential": (lambda: HiddenSequential(
            nn.Linear(FEATURES, FEATURES), snn.Leaky(beta=0.9, init_hidden=True),
            nn.Linear(FEATURES, CLASSES),
            snn.Leaky(beta=0.9, init_hidden=True, output=True, reset_mechanism="zero")), seq()),
        "Synaptic": (lambda: SynapticNet(), seq()),
        "Synaptic_zero_learn_alpha": (lambda: SynapticNet(
            reset_mechanism="zero", learn_alpha=True, learn_beta=True,
            spike_grad=surrogate.spike_rate_escape()), seq()),
        "Synaptic_init_hidden_sequential": (lambda: HiddenSequential(
            nn.Linear(FEATURES, FEATURES),
            snn.Synaptic(alpha=0.9, beta=0.8, init_hidden=True, spike_grad=surrogate.sigmoid()),
            nn.Linear(FEATURES, CLASSES),
            snn.Synaptic(alpha=0.9, beta=0.8, init_hidden=True, output=True)), seq()),
        "Alpha": (lambda: AlphaNet(), seq()),
        "Lapicque_RC": (lambda: LapicqueNet(R=5.1, C=5e-3, time_step=1e-3), seq()),
        "Lapicque_beta_zero": (lambda: LapicqueNet(beta=0.9, reset_mechanism="zero",
                                                   learn_threshold=True), seq()),
        "RLeaky_linear": (lambda: RecurrentNet(lambda: snn.RLeaky(
            beta=0.9, linear_features=FEATURES)), seq()),
        "RLeaky_one_to_one_init_hidden": (lambda: HiddenSequential(
            nn.Linear(FEATURES, FEATURES),
            snn.RLeaky(beta=0.9, all_to_all=False, V=0.5, init_hidden=True,
                       reset_mechanism="zero"),
            nn.Linear(FEATURES, CLASSES),
            snn.RLeaky(beta=0.9, all_to_all=False, init_hidden=True, output=True)), seq()),
        "RLeaky_conv2d_init_hidden": (lambda: HiddenSequential(
            nn.Conv2d(1, 4, 3, padding=1),
            snn.RLeaky(beta=0.9, conv2d_channels=4, kernel_size=3, init_hidden=True,
                       learn_beta=True),
            nn.Flatten(), nn.Linear(4 * 8 * 8, CLASSES),
            snn.Leaky(beta=0.9, init_hidden=True, output=True)), images()),
        "RSynaptic_linear": (lambda: RecurrentNet(lambda: snn.RSynaptic(
            alpha=0.9, beta=0.8, linear_features=FEATURES, learn_threshold=True,
            reset_mechanism="zero"), synaptic=True), seq()),
        "SLSTM": (lambda: SLSTMNet(reset_mechanism="subtract"), seq()),
        "SConv2dLSTM_maxpool": (lambda: SConvLSTMNet(spike_grad=surrogate.atan()), images()),
        "SConv2dLSTM_init_hidden_avgpool": (lambda: SConvLSTMHidden(), images()),
        "rate_mse_count_loss": (lambda: RateCodedLoss(SF.mse_count_loss(
            correct_rate=0.8, incorrect_rate=0.2)), lambda: {
            "x": torch.rand(BATCH, FEATURES), "targets": torch.tensor([1, 3])}),
        "conv_ce_rate_loss": (lambda: ConvNetLoss(), lambda: {
            "x": torch.rand(STEPS, BATCH, 1, 8, 8), "targets": torch.tensor([0, 2])}),
        "BatchNormTT_Leaky": (lambda: BNTTNet(), seq()),
    }.items()}
