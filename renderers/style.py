"""Colours and line styles of each node role and edge kind, shared by the renderers."""

from __future__ import annotations

ROLE_STYLES: dict[str, dict[str, str]] = {
    "leaf": {"fillcolor": "#cfe2ff"},
    "no_grad": {"fillcolor": "#eeeeee", "style": "dashed", "fontcolor": "#555555"},
    "intermediate": {"fillcolor": "#ffffff"},
    "retained": {"fillcolor": "#fff3bf"},
    "root": {"fillcolor": "#ffd8a8", "penwidth": "2"},
    "derivative": {"fillcolor": "#e5dbff"},
    "grad_seed": {"fillcolor": "#d3f9d8"},
    "anomaly": {"fillcolor": "#ff8787", "color": "#c92a2a", "penwidth": "2"},
    "path": {"fillcolor": "#b2f2bb", "color": "#2b8a3e", "penwidth": "2"},
    "op": {"fillcolor": "#f1f3f5"},
    "broadcast": {"fillcolor": "#ffe3e3"},
    "saved": {"fillcolor": "#ffec99"},
    "freed": {"fillcolor": "#f8f9fa", "style": "dashed", "fontcolor": "#868e96"},
    "note": {"fillcolor": "#fffbe6"},
}

EDGE_STYLES: dict[str, dict[str, str]] = {
    "data": {},
    "next": {},
    "saved": {"style": "dashed", "arrowhead": "none", "color": "#e67700"},
    "grad": {"style": "dashed", "color": "#1971c2", "fontcolor": "#1971c2"},
    "cut": {"style": "dotted", "color": "#868e96", "arrowhead": "none"},
    "path": {"color": "#2b8a3e", "penwidth": "2.5"},
    # a folded loop's recurrence: drawn back up the picture, not ranking it
    "loop": {"color": "#7048e8", "fontcolor": "#7048e8", "penwidth": "2", "style": "bold",
             "constraint": "false"},
}
