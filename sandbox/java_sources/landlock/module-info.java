/** Landlock from Java, for the shim alone: the only module granted native access. */
module grader.landlock {
    requires jdk.incubator.foreign;
    exports grader_landlock;
}
