"""Starts the pass-through node on a camera topic: a transport check without a model.

It republishes each image (raw or compressed) with its header, and reports rate, bad frames and
incompatible publishers on /diagnostics. Use it to check that a camera's frames reach this package
(QoS, encodings, Fast DDS segment size) before starting perception.launch.py.

    ros2 launch htp_perception pass_through.launch.py image:=/camera/image_raw
"""
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node


def generate_launch_description():
    image = LaunchConfiguration('image')
    return LaunchDescription([
        DeclareLaunchArgument('image', default_value='/camera/image_raw',
                              description='sensor_msgs/Image topic to pass through'),
        Node(package='htp_perception', executable='pass_through_node', name='pass_through',
             output='screen', remappings=[('image', image)]),
    ])
