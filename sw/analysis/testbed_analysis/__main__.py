"""python3 -m testbed_analysis TRACE [--perfetto OUT.json] [--pair 1:2]"""
import sys

from .driver import analyse_main

sys.exit(analyse_main())
