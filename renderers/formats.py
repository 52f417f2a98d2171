"""The formats a graph is drawn in, declared once for the command line, the renderers and the
debugger's `graph FILE`."""

FORMATS = ("svg", "png", "pdf", "dot", "json", "mermaid", "html")
IMAGE_FORMATS = ("svg", "png", "pdf")  # laid out by Graphviz `dot` (renderers/svg.py)
FORMATS_BY_SUFFIX = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot",
                     ".json": "json", ".mmd": "mermaid", ".mermaid": "mermaid",
                     ".html": "html"}
VIEWS = ("forward", "backward")  # tensors and ops; grad_fn nodes as autograd holds them
RANKDIRS = ("TB", "LR", "BT", "RL")  # Graphviz's directions of the layout
