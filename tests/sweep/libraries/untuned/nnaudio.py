"""nnAudio 0.3.4 (PyPI nnaudio, import nnAudio): its spectrogram front-ends from nnAudio.features at
small sizes: STFT (each output format, trainable kernels, log frequency scale, constant padding,
no centring, its inverse), iSTFT, MelSpectrogram, MFCC, CQT1992v2, CQT2010v2, VQT, Gammatonegram,
CFP and Combined_Frequency_Periodicity, with their trainable variants (not Griffin_Lim: its forward
passes a real tensor to torch.istft, which torch 2 refuses eagerly). Waveforms are
batches of 2 at 16 kHz (8 kHz for CFP); a forward option of the library's own (output_format,
normalization_type, onesided, length) goes in with the inputs as a keyword of forward."""


def configurations(torch):
    from nnAudio import features as F

    sr, samples = 16000, 4096

    def wave(n=samples):
        return lambda: {"x": torch.randn(2, n)}

    def stft(**kw):
        return F.STFT(n_fft=256, hop_length=64, sr=sr, verbose=False, **kw)

    class STFTRoundTrip(torch.nn.Module):
        """STFT then its own inverse (iSTFT=True), back to the waveform's length."""

        def __init__(self, **kw):
            super().__init__()
            self.stft = stft(iSTFT=True, output_format="Complex", **kw)

        def forward(self, x):
            return self.stft.inverse(self.stft(x), onesided=True, length=x.shape[-1])

    def cqt_kw(**kw):
        return dict(sr=sr, hop_length=128, fmin=220, n_bins=24, bins_per_octave=12,
                    verbose=False, **kw)

    def cqt2010_kw(**kw):
        return dict(sr=sr, hop_length=128, fmin=110, n_bins=36, bins_per_octave=12,
                    verbose=False, **kw)

    def cfp(cls):
        # CFP's constructor calls scipy.signal.blackmanharris, which SciPy 1.13 moved to
        # scipy.signal.windows only (the SciPy that builds against this NumPy 2 is 1.17): put it
        # back for the constructor; forward does not use SciPy.
        import scipy.signal

        if not hasattr(scipy.signal, "blackmanharris"):
            scipy.signal.blackmanharris = scipy.signal.windows.blackmanharris
        return cls(fr=4, fs=8000, hop_length=160, window_size=1025)

    return {
        "STFT_complex": (lambda: stft(output_format="Complex"), wave()),
        "STFT_magnitude_trainable": (lambda: stft(output_format="Magnitude", trainable=True),
                                     wave()),
        "STFT_phase_constant_pad": (lambda: stft(output_format="Phase", pad_mode="constant"),
                                    wave()),
        "STFT_log_nocenter_format_arg": (
            lambda: stft(freq_scale="log", fmin=50, fmax=6000, freq_bins=64, center=False),
            lambda: {"x": torch.randn(2, samples), "output_format": "Magnitude"}),
        "STFT_inverse_roundtrip": (lambda: STFTRoundTrip(), wave()),
        "STFT_inverse_roundtrip_trainable": (lambda: STFTRoundTrip(trainable=True), wave()),
        "iSTFT_onesided": (
            lambda: F.iSTFT(n_fft=256, hop_length=64, sr=sr, verbose=False),
            lambda: {"X": torch.randn(2, 129, 65, 2), "onesided": True, "length": samples}),
        "iSTFT_trainable_fixed_window": (
            lambda: F.iSTFT(n_fft=256, hop_length=64, sr=sr, trainable_kernels=True,
                            trainable_window=True, refresh_win=False, verbose=False),
            lambda: {"X": torch.randn(2, 129, 65, 2), "onesided": True}),
        "MelSpectrogram": (lambda: F.MelSpectrogram(sr=sr, n_fft=512, n_mels=32, hop_length=128,
                                                    verbose=False), wave()),
        "MelSpectrogram_trainable": (lambda: F.MelSpectrogram(
            sr=sr, n_fft=512, n_mels=32, hop_length=128, trainable_mel=True, trainable_STFT=True,
            htk=True, fmax=7000, verbose=False), wave()),
        "MFCC": (lambda: F.MFCC(sr=sr, n_mfcc=13, n_fft=512, n_mels=32, hop_length=128,
                                verbose=False), wave()),
        "MFCC_trainable_notopdb": (lambda: F.MFCC(
            sr=sr, n_mfcc=13, n_fft=512, n_mels=32, hop_length=128, top_db=None,
            trainable_mel=True, trainable_STFT=True, verbose=False), wave()),
        "CQT1992v2": (lambda: F.CQT1992v2(**cqt_kw()), wave()),
        "CQT1992v2_complex_trainable_wrap": (
            lambda: F.CQT1992v2(**cqt_kw(output_format="Complex", trainable=True,
                                         pad_mode="constant")),
            lambda: {"x": torch.randn(2, samples), "normalization_type": "wrap"}),
        "CQT2010v2": (lambda: F.CQT2010v2(**cqt2010_kw()), wave()),
        "CQT2010v2_phase_trainable_noearlydownsample": (
            lambda: F.CQT2010v2(**cqt2010_kw(output_format="Phase", trainable=True,
                                             earlydownsample=False)),
            lambda: {"x": torch.randn(2, samples), "normalization_type": "convolutional"}),
        "VQT": (lambda: F.VQT(**cqt2010_kw(gamma=5)), wave()),
        "Gammatonegram_trainable": (lambda: F.Gammatonegram(
            sr=sr, n_fft=512, n_bins=32, hop_length=128, trainable_bins=True,
            trainable_STFT=True, verbose=False), wave()),
        "CFP": (lambda: cfp(F.CFP), wave(8000)),
        "Combined_Frequency_Periodicity": (lambda: cfp(F.Combined_Frequency_Periodicity),
                                           wave(8000)),
    }
