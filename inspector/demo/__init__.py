"""``inspector demo``: a loopback room, a simulated Alicia agent, and the inspector joined to them."""
