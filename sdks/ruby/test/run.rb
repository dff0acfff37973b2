# frozen_string_literal: true

# Runs every minitest file of the gem: `ruby -Ilib -Itest test/run.rb`.
Dir[File.join(__dir__, "**", "*_test.rb")].sort.each { |file| require file }
