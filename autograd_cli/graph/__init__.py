"""A run as a graph: recording it into the neutral graph model (renderers/model.py), the names
and places of its tensors, the report (--json, the node table), drawing it."""
