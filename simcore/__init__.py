"""simcore: fast Monte Carlo simulation of modern board games."""
