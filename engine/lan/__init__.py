"""The edge of the engine that runs tables for people: the table host, its sessions and, later, the network.

This is the only part of ``engine`` that may use threads for pacing and (for the network) asyncio; the rules
under it stay pure and deterministic.
"""
