"""Engines: different searches behind one signature, selected by name through ``registry``."""
