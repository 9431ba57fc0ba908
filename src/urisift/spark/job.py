"""The file to hand to ``spark-submit`` (it runs it as a script, not as a
module of the package): ``spark-submit .../urisift/spark/job.py --output DIR PATH ...``."""

from urisift.spark.driver import entry

if __name__ == "__main__":
    entry()
