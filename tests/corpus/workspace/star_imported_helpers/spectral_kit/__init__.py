from .helpers import *
