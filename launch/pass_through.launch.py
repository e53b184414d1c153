"""Starts the pass-through node on a camera topic: a transport check that republishes the frames
it receives through the zero-copy intake (perception.launch.py runs the models).

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
