"""`.item()` on tensors computed in the graph breaks (GM201): an argmax used to index a Python list,
`max().item()` of computed lengths, and `torch.clamp(torch.as_tensor([n]), min=1).item()` of a
tensor built from a Python int.
Reproduces transformers zoedepth/modeling_zoedepth.py:1062-1066,
qwen3_omni_moe/modeling_qwen3_omni_moe.py:731-736 and loss/loss_rt_detr.py:384-386."""
import torch
from torch import nn


def _get_feat_extract_output_lengths(input_lengths, n_window):
    input_lengths_leave = input_lengths % (n_window * 2)
    feat_lengths = (input_lengths_leave - 1) // 2 + 1
    return ((feat_lengths - 1) // 2 + 1 - 1) // 2 + 1 + (input_lengths // (n_window * 2)) * 13


class Model(nn.Module):
    bin_configurations = [{"name": "nyu", "n_bins": 64}, {"name": "kitti", "n_bins": 64}]

    def pick_path(self, domain_logits):
        domain_vote = torch.softmax(domain_logits.sum(dim=0, keepdim=True), dim=-1)
        names = [configuration["name"] for configuration in self.bin_configurations]
        bin_configurations_name = names[torch.argmax(domain_vote, dim=-1).squeeze().item()]  # expect: GM201
        return bin_configurations_name

    def window(self, chunk_lengths, feature_lens, n_window_infer=8, n_window=2):
        aftercnn_lens = _get_feat_extract_output_lengths(feature_lens, n_window)
        feature_lens_after_cnn = _get_feat_extract_output_lengths(chunk_lengths, n_window)
        max_len_after_cnn = feature_lens_after_cnn.max().item()  # expect: GM201
        n_window_ratio = n_window_infer // (n_window * 2)
        window_aftercnn = max_len_after_cnn * n_window_ratio
        return aftercnn_lens + window_aftercnn

    def num_boxes(self, outputs, targets):
        num_boxes = sum(len(t["class_labels"]) for t in targets)
        num_boxes = torch.as_tensor([num_boxes], dtype=torch.float, device=next(iter(outputs.values())).device)
        num_boxes = torch.clamp(num_boxes, min=1).item()  # expect: GM201
        return outputs["logits"] / num_boxes

    def forward(self, domain_logits, chunk_lengths, feature_lens, logits, class_labels):
        name = self.pick_path(domain_logits)
        w = self.window(chunk_lengths, feature_lens)
        loss = self.num_boxes({"logits": logits}, [{"class_labels": class_labels}])
        return (w, loss) if name == "nyu" else (w, -loss)


def example():
    return Model().eval(), (
        torch.randn(2, 2),
        torch.tensor([8, 6, 4]),
        torch.tensor([14]),
        torch.randn(3),
        torch.tensor([1, 2]),
    )
